-- Several inputs, including a matrix, read from a data file.
-- ==
-- input @ data/matrix.in
-- output { [5, 11, 17] }
def main [n][m] (a: [n][m]i32) (v: [m]i32): [n]i32 =
  map (\row -> i32.sum (map2 (*) row v)) a
