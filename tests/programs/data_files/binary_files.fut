-- Inputs and expected outputs in Futhark's binary value format.
-- ==
-- input @ data/matrix.bin
-- output @ data/matrix_result.bin
def main [n][m] (a: [n][m]i32) (v: [m]i32): [n]i32 =
  map (\row -> i32.sum (map2 (*) row v)) a
