-- Updating an element and a row of a three-dimensional array.
-- ==
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] }
-- output { [[[1, 2], [0, 0]], [[5, 6], [7, 99]]] }
def main [n][m][k] (a: *[n][m][k]i32): [n][m][k]i32 =
  let a[1, 1, 1] = 99
  let a[0, 1] = replicate k 0
  in a
