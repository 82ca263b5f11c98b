-- Referring to an unbound variable.
-- ==
-- error: unknown
def main (x: i32): i32 = x + y
