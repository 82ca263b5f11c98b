-- Nested map and reduce computing row sums of a matrix product with a vector.
-- ==
-- input { [[1, 2], [3, 4], [5, 6]] [10, 1] }
-- output { [12, 34, 56] }
def main [n][m] (a: [n][m]i32) (v: [m]i32): [n]i32 =
  map (\row -> reduce (+) 0 (map2 (*) row v)) a
