-- Updating one element of a unique array with 'with'.
-- ==
-- input { [1, 2, 3] 1i64 9 }
-- output { [1, 9, 3] }
def main (xs: *[]i32) (i: i64) (v: i32): *[]i32 = xs with [i] = v
