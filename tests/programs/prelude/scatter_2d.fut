-- scatter_2d writes values at pairs of indices.
-- ==
-- input { [0i64, 1i64] [1i64, 2i64] [5, 6] }
-- output { [[0, 5, 0], [0, 0, 6]] }
def main [n] (is: [n]i64) (js: [n]i64) (vs: [n]i32): [][]i32 =
  scatter_2d (replicate 2 (replicate 3 0)) (zip is js) vs
