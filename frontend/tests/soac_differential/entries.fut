-- ==
-- entry: same
-- input { [1i32, 2i32] [3i32, 4i32] }
-- input { [1i32, 2i32] [3i32] }
-- error: size
entry same [n] (xs: [n]i32) (ys: [n]i32) = map2 (+) xs ys

-- ==
-- entry: explicit
-- input { 2i64 [1i32, 2i32] }
-- input { 3i64 [1i32, 2i32] }
-- error: .
entry explicit (n: i64) (xs: [n]i32) = (n, map (+1) xs)

-- ==
-- entry: matrix
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] [1i32, 1i32, 1i32] }
entry matrix [n][m] (a: [n][m]i32) (v: [m]i32): [n]i32 = map (\r -> i32.sum (map2 (*) r v)) a

-- ==
-- entry: consts
-- input { [1i32, 2i32, 3i32] }
-- input { [1i32, 2i32] }
-- error: .
entry consts (xs: [3]i32) = reverse xs

-- ==
-- entry: noargs
-- input { }
entry noargs : []i32 = [1, 2, 3]

-- ==
-- entry: scalar_only
-- input { 3i32 2.5f64 true }
entry scalar_only (a: i32) (b: f64) (c: bool) = if c then f64.i32 a * b else b
