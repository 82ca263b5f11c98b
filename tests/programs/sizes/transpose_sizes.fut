-- Size parameters for both dimensions of a matrix.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] }
-- output { [[1, 4], [2, 5], [3, 6]] 2i64 3i64 }
def main [n][m] (a: [n][m]i32): ([m][n]i32, i64, i64) = (transpose a, n, m)
