-- Indexing several dimensions of arrays whose rank is only known after
-- inference (a replicate of a replicate, a map result).
-- ==
-- input { 1i64 }
-- output { 0i32 [[0i32, 0i32, 0i32], [0i32, 0i32, 9i32], [0i32, 0i32, 0i32]] 2i32 }
def main (n: i64): (i32, [3][3]i32, i32) =
  let m = replicate 3 (replicate 3 0i32)
  let m2 = copy m with [n, 2] = 9
  let p = map (\i -> map (\j -> i32.i64 (i + j)) (iota 3)) (iota 3)
  in (m[n, 2], m2, p[n, 1])
