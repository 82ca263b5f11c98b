-- A for-in loop over the rows of a matrix.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] }
-- output { 21 2 }
def main (m: [][]i32): (i32, i32) =
  loop (acc, rows) = (0, 0) for row in m do (acc + i32.sum row, rows + 1)
