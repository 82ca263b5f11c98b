-- Adding a matrix to its transpose.
-- ==
-- input { [[1, 2, 3], [4, 5, 6], [7, 8, 9]] }
-- output { [[2, 6, 10], [6, 10, 14], [10, 14, 18]] }
def main [n] (a: [n][n]i32): [n][n]i32 = map2 (map2 (+)) a (transpose a)
