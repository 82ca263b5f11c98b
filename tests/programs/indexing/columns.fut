-- Slicing columns and rows of a matrix.
-- ==
-- input { [[1, 2, 3], [4, 5, 6], [7, 8, 9]] }
-- output { [2, 5, 8] [4, 5, 6] [7, 8, 9] }
def main (m: [][]i32): ([]i32, []i32, []i32) =
  (m[:, 1], m[1, :], m[2])
