-- A type abbreviation with size parameters.
-- ==
-- input { [[1, 2], [3, 4], [5, 6]] }
-- output { [9, 12] }
type matrix [n][m] = [n][m]i32

def colsums [n][m] (a: matrix [n][m]): [m]i32 =
  map i32.sum (transpose a)

def main [n][m] (a: [n][m]i32): [m]i32 = colsums a
