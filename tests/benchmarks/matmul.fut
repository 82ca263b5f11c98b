-- Dense matrix multiplication written the natural way (issue 25; anchor:
-- `a @ b`, cuBLAS with TF32 off): a segred over (i, j, q) that
-- `segop-tile` tiles (Note [Block tiling]). `linear` adds a bias and a
-- ReLU after each dot product: a segmap whose body's reduction is tiled.
-- The big datasets are for `futmlir bench` only (`notest`).
-- ==
-- input { [[1f32, 2f32], [3f32, 4f32]] [[5f32, 6f32], [7f32, 8f32]] }
-- output { [[19f32, 22f32], [43f32, 50f32]] }
-- notest random input { [4096][4096]f32 [4096][4096]f32 }

def matmul [n][k][m] (a: [n][k]f32) (b: [k][m]f32) : [n][m]f32 =
  map (\r -> map (\c -> f32.sum (map2 (*) r c)) (transpose b)) a

def main [n][k][m] (a: [n][k]f32) (b: [k][m]f32) : [n][m]f32 = matmul a b

-- ==
-- entry: linear
-- input { [[1f32, 2f32], [3f32, 4f32]] [[5f32, -6f32], [7f32, -8f32]] [1f32, 2f32] }
-- output { [[20f32, 0f32], [44f32, 0f32]] }
-- notest random input { [4096][4096]f32 [4096][4096]f32 [4096]f32 }

entry linear [n][k][m] (a: [n][k]f32) (b: [k][m]f32) (bias: [m]f32) : [n][m]f32 =
  map (\r -> map2 (\c x -> f32.max 0 (f32.sum (map2 (*) r c) + x)) (transpose b) bias) a
