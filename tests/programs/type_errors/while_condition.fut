-- The condition of a while loop must be a boolean.
-- ==
-- error: expected
def main (n: i32): i32 = loop x = 0 while x + n do x + 1
