-- Nested lambdas over a two-dimensional array.
-- ==
-- input { [[1, 2], [3, 4]] }
-- output { [[2, 3], [4, 5]] [3, 7] }
def main (m: [][]i32): ([][]i32, []i32) =
  (map (\row -> map (\x -> x + 1) row) m, map (\row -> reduce (+) 0 row) m)
