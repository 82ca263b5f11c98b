-- Truncating division by zero.
-- ==
-- input { 7 0 }
-- error: division by zero
def main (x: i32) (y: i32): i32 = x // y
