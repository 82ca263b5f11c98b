-- ==
-- input { [0i64, 1i64, 2i64, 5i64, -1i64, 1i64] [0i64, 2i64, 1i64, 0i64, 0i64, 7i64] [1i32, 2i32, 3i32, 4i32, 5i32, 6i32] }
def main (is: []i64) (js: []i64) (vs: []i32) =
  let m = replicate 3 (replicate 3 0i32)
  in (scatter_2d m (zip is js) vs, scatter (replicate 4 [0i32, 0]) [1, 3, 9] [[1, 2], [3, 4], [5, 6]])
