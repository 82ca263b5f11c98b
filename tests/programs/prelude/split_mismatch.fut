-- The coercion to `[n+m]` is checked at run time, and `split` checks that
-- neither part has a negative size.
-- ==
-- input { [1, 2, 3] 1i64 2i64 }
-- output { [1] [2, 3] }
-- input { [1, 2, 3] 1i64 1i64 }
-- error: Value of shape \[[0-9]\] cannot match shape of type
-- input { [1, 2, 3] 4i64 -1i64 }
-- error: cannot split an array of size 3 into arrays of sizes 4 and -1
def main [k] (xs: [k]i32) (n: i64) (m: i64): ([n]i32, [m]i32) = split (xs :> [n+m]i32)
