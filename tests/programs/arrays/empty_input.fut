-- Empty arrays as input.
-- ==
-- input { empty([0]i32) }
-- output { 0i64 0 }
-- input { [7] }
-- output { 1i64 7 }
def main (xs: []i32): (i64, i32) = (length xs, i32.sum xs)
