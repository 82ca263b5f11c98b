-- Kernels that read transposed views of their inputs: matrix
-- multiplication in its natural form, a transpose read whole per row,
-- and a 3-D rearrangement. On the CPU the views are copied row-major
-- before the kernel (Note [Transposed views on the CPU]); the results
-- must not change.
-- ==
-- input { [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32]] [[1f32, 0f32], [0f32, 1f32], [2f32, 2f32]] }
-- output { [[7f32, 8f32], [16f32, 17f32]] }
-- input { empty([0][3]f32) [[1f32], [2f32], [3f32]] }
-- output { empty([0][1]f32) }
-- input { [[1f32, 2f32]] empty([2][0]f32) }
-- output { empty([1][0]f32) }
def main [m][q][n] (a: [m][q]f32) (b: [q][n]f32) : [m][n]f32 =
  map (\r -> map (\c -> f32.sum (map2 (*) r c)) (transpose b)) a

-- Each row of the transpose (a column) scanned, and one element of the
-- original kept beside it.
-- ==
-- entry: columns
-- input { [[1, 2, 3], [4, 5, 6]] }
-- output { [[1, 5], [2, 7], [3, 9]] [1, 2, 3] }
entry columns [m][n] (xss: [m][n]i32) : ([n][m]i32, [n]i32) =
  unzip (map2 (\c j -> (scan (+) 0 c, xss[0, j])) (transpose xss) (iota n))

-- r[j][k] is the column x[:][j][k], scanned.
-- ==
-- entry: rearranged
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] }
-- output { [[[1, 6], [2, 8]], [[3, 10], [4, 12]]] }
entry rearranged (xsss: [][][]i32) : [][][]i32 =
  map (\m -> map (\c -> scan (+) 0 c) (transpose m)) (transpose xsss)
