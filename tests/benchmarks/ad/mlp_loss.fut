-- The gradient of a 2-layer perceptron's squared loss Σ (relu(XW₁)W₂ - Y)²
-- in both weight matrices (issue 27's benchmarks; scripts/ad-bench.py).
-- Small case by hand: x = [1], W₁ = [[2]], W₂ = [[3]], y = [0]: h = 2,
-- out = 6, ∂W₂ = 2·6·h = 24, ∂W₁ = 2·6·3·x = 36.
-- ==
-- entry: grad
-- input { [[1f32]] [[0f32]] [[2f32]] [[3f32]] }
-- output { [[36f32]] [[24f32]] }

def matmul [n][k][m] (a: [n][k]f32) (b: [k][m]f32) : [n][m]f32 =
  map (\r -> map (\c -> f32.sum (map2 (*) r c)) (transpose b)) a

def mlp [b][i][h][o] (x: [b][i]f32) (y: [b][o]f32) (w1: [i][h]f32, w2: [h][o]f32) : f32 =
  let h1 = map (map (f32.max 0)) (matmul x w1)
  let out = matmul h1 w2
  in f32.sum (map f32.sum (map2 (map2 (\p q -> (p - q) * (p - q))) out y))

entry primal [b][i][h][o] (x: [b][i]f32) (y: [b][o]f32) (w1: [i][h]f32) (w2: [h][o]f32) = mlp x y (w1, w2)
entry grad [b][i][h][o] (x: [b][i]f32) (y: [b][o]f32) (w1: [i][h]f32) (w2: [h][o]f32) = vjp (mlp x y) (w1, w2) 1
