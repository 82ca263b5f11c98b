-- An in-place update out of bounds.
-- ==
-- input { [1, 2, 3] 4i64 }
-- error: out of bounds
def main (xs: *[]i32) (i: i64): []i32 = xs with [i] = 0
