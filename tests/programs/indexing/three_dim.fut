-- Full and partial indexing of a three-dimensional array.
-- ==
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] }
-- output { 6 [[5, 6], [7, 8]] [7, 8] [2, 6] }
def main (a: [][][]i32): (i32, [][]i32, []i32, []i32) =
  (a[1, 0, 1], a[1], a[1, 1], a[:, 0, 1])
