-- Integer remainder by zero.
-- ==
-- input { 7i64 0i64 }
-- error: division by zero
def main (x: i64) (y: i64): i64 = x % y
