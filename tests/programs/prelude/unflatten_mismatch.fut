-- The coercion to `[n*m]` is checked at run time: it fails when the
-- array does not have n*m elements.
-- ==
-- input { [1, 2, 3, 4, 5, 6] 2i64 3i64 }
-- output { [[1, 2, 3], [4, 5, 6]] }
-- input { [1, 2, 3, 4, 5, 6] 4i64 2i64 }
-- error: Value of shape \[[0-9]\] cannot match shape of type
-- input { [1, 2, 3, 4, 5, 6] -2i64 -3i64 }
-- error: cannot unflatten .* into shape \[-2\]\[-3\]
def main [k] (xs: [k]i32) (n: i64) (m: i64): [n][m]i32 = unflatten (xs :> [n*m]i32)
