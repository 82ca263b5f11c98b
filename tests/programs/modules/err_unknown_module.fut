-- A qualified name whose module does not exist.
-- ==
-- error: unknown

def main (x: i32) = Nope.f x
