-- The gradient of a dense least-squares loss Σ (XW - Y)² in W (issue 27's
-- benchmarks; scripts/ad-bench.py times it against jax.grad). The small
-- case is checked against the gradient 2Xᵀ(XW - Y), worked out by hand:
-- X = [[1, 2], [3, 4]], W = I, Y = 0: XW - Y = X, 2XᵀX = [[20, 28], [28, 40]].
-- ==
-- entry: grad
-- input { [[1f32, 2f32], [3f32, 4f32]] [[0f32, 0f32], [0f32, 0f32]] [[1f32, 0f32], [0f32, 1f32]] }
-- output { [[20f32, 28f32], [28f32, 40f32]] }

def matmul [n][k][m] (a: [n][k]f32) (b: [k][m]f32) : [n][m]f32 =
  map (\r -> map (\c -> f32.sum (map2 (*) r c)) (transpose b)) a

def loss [n][k][m] (x: [n][k]f32) (y: [n][m]f32) (w: [k][m]f32) : f32 =
  f32.sum (map f32.sum (map2 (map2 (\p q -> (p - q) * (p - q))) (matmul x w) y))

entry primal [n][k][m] (x: [n][k]f32) (y: [n][m]f32) (w: [k][m]f32) = loss x y w
entry grad [n][k][m] (x: [n][k]f32) (y: [n][m]f32) (w: [k][m]f32) = vjp (loss x y) w 1
