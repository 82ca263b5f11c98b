-- Calling an undefined function.
-- ==
-- error: unknown
def main (x: i32): i32 = frobnicate x
