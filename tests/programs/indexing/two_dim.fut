-- Indexing a matrix with one and two indices.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] 1i64 2i64 }
-- output { 6 6 [4, 5, 6] }
def main (m: [][]i32) (i: i64) (j: i64): (i32, i32, []i32) =
  (m[i, j], m[i][j], m[i])
