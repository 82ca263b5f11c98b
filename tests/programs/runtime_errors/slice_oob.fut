-- A slice extending past the end of an array.
-- ==
-- input { [1, 2, 3] 3i64 }
-- output { [2, 3] }
-- input { [1, 2, 3] 5i64 }
-- error: out of bounds
def main (xs: []i32) (j: i64): []i32 = xs[1:j]
