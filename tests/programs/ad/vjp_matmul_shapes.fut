-- Reverse-mode gradients of matrix-product nests, whose free arrays'
-- adjoints are summed over the rows by moving the sum inside the nest
-- (Note [Row sums by interchange] in passes/src/soac/vjp/row_sums.rs).
-- Non-square shapes (3×2 times 2×4) and no rows, the free array on the
-- right, on the left and on both sides of the product, a bias, a free
-- array used twice, a scalar of the row scaling the product, a matrix
-- of W's rank each row computes, and an activation between two products. Expected values by hand (integers:
-- 2Xᵀ(XW - Y) and the like); the tanh case from the closed form
-- W₂̄ = tanh(XW₁/10)ᵀ·1, W₁̄ = Xᵀ((1·W₂ᵀ) ⊙ (1 - H²))/10, which a finite
-- difference confirms (∂/∂W₁[1][2] ≈ 0.429434). The lit test
-- tests/ir/soac/vjp-row-sums.fut checks that none of these gradients
-- makes an array of rank 3.
-- ==
-- entry: grad_right
-- input { [[1f32, 2f32], [3f32, 4f32], [5f32, 6f32]]
--         [[1f32, 1f32, 0f32, 0f32], [0f32, 2f32, 1f32, 1f32], [1f32, 0f32, 3f32, 2f32]]
--         [[1f32, 0f32, 2f32, -1f32], [0f32, 1f32, 1f32, 3f32]] }
-- output { [[58f32, 74f32, 192f32, 168f32], [72f32, 92f32, 244f32, 216f32]] }
-- input { empty([0][2]f32) empty([0][4]f32)
--         [[1f32, 0f32, 2f32, -1f32], [0f32, 1f32, 1f32, 3f32]] }
-- output { [[0f32, 0f32, 0f32, 0f32], [0f32, 0f32, 0f32, 0f32]] }

-- ==
-- entry: grad_both
-- input { [[1f32, 2f32], [3f32, 4f32], [5f32, 6f32]]
--         [[1f32, 1f32, 0f32, 0f32], [0f32, 2f32, 1f32, 1f32], [1f32, 0f32, 3f32, 2f32]]
--         [[1f32, 0f32, 2f32, -1f32], [0f32, 1f32, 1f32, 3f32]] }
-- output { [[6f32, 40f32], [26f32, 70f32], [38f32, 104f32]]
--          [[58f32, 74f32, 192f32, 168f32], [72f32, 92f32, 244f32, 216f32]] }

-- ==
-- entry: grad_left
-- input { [[1f32, 2f32], [3f32, 4f32], [5f32, 6f32]]
--         [[1f32, 0f32, 2f32, -1f32], [0f32, 1f32, 1f32, 3f32]] }
-- output { [[8f32, 42f32], [28f32, 82f32], [48f32, 122f32]] }

-- ==
-- entry: grad_bias
-- input { [[1f32, 2f32], [3f32, 4f32], [5f32, 6f32]]
--         [[1f32, 1f32, 0f32, 0f32], [0f32, 2f32, 1f32, 1f32], [1f32, 0f32, 3f32, 2f32]]
--         [[1f32, 0f32, 2f32, -1f32], [0f32, 1f32, 1f32, 3f32]]
--         [1f32, -2f32, 0f32, 1f32] }
-- output { [[76f32, 38f32, 192f32, 186f32], [96f32, 44f32, 244f32, 240f32]]
--          [20f32, 6f32, 52f32, 54f32] }

-- ==
-- entry: grad_twice
-- input { [[1f32, 2f32], [3f32, 4f32], [5f32, 6f32]]
--         [[1f32, 0f32, 2f32, -1f32], [0f32, 1f32, 1f32, 3f32]] }
-- output { [[70f32, 88f32, 228f32, 194f32], [88f32, 112f32, 288f32, 248f32]] }

-- ==
-- entry: grad_scaled
-- input { [[1f32, 2f32], [3f32, 4f32], [5f32, 6f32]]
--         [[1f32, 0f32, 2f32, -1f32], [0f32, 1f32, 1f32, 3f32]] }
-- output { [[35f32, 35f32, 35f32, 35f32], [44f32, 44f32, 44f32, 44f32]] }

-- ==
-- entry: grad_per_row_matrix
-- input { [[1f32, 2f32], [3f32, 4f32], [5f32, 6f32]]
--         [[1f32, 0f32, 2f32, -1f32], [0f32, 1f32, 1f32, 3f32]] }
-- output { [[18f32, 0f32, 36f32, -18f32], [0f32, 18f32, 18f32, 54f32]] }

-- ==
-- entry: grad_tanh
-- input { [[1f32, 2f32], [3f32, 4f32], [5f32, 6f32]]
--         [[1f32, 0f32, 2f32, -1f32], [0f32, 1f32, 1f32, 3f32]]
--         [[1f32, 1f32], [2f32, 0f32], [0f32, 1f32], [-1f32, 3f32]] }
-- output { [[1.533543f32, 1.417170f32, 0.286820f32, 0.706873f32],
--           [2.071873f32, 1.922822f32, 0.429434f32, 1.013033f32]]
--          [[0.853098f32, 0.853098f32], [1.114374f32, 1.114374f32],
--           [2.063212f32, 2.063212f32], [2.040138f32, 2.040138f32]] }

def dot [k] (a: [k]f32) (b: [k]f32) : f32 = f32.sum (map2 (*) a b)

def matmul [n][k][m] (a: [n][k]f32) (b: [k][m]f32) : [n][m]f32 =
  map (\r -> map (\c -> dot r c) (transpose b)) a

def sq_dist [n][m] (a: [n][m]f32) (b: [n][m]f32) : f32 =
  f32.sum (map f32.sum (map2 (map2 (\p q -> (p - q) * (p - q))) a b))

-- Σ (XW - Y)² in W, free in the lambda over X's rows: 2Xᵀ(XW - Y).
entry grad_right [n][k][m] (x: [n][k]f32) (y: [n][m]f32) (w: [k][m]f32) : [k][m]f32 =
  vjp (\w -> sq_dist (matmul x w) y) w 1

-- The same in X and W: 2(XW - Y)Wᵀ and 2Xᵀ(XW - Y).
entry grad_both [n][k][m] (x: [n][k]f32) (y: [n][m]f32) (w: [k][m]f32) : ([n][k]f32, [k][m]f32) =
  vjp (\(x, w) -> sq_dist (matmul x w) y) (x, w) 1

-- Σ ((AB)ᵀ)² in A, free in the lambda over B's columns: 2(AB)Bᵀ.
entry grad_left [n][k][m] (a: [n][k]f32) (b: [k][m]f32) : [n][k]f32 =
  vjp (\a -> f32.sum (map (\c -> f32.sum (map (\r -> dot r c * dot r c) a)) (transpose b))) a 1

-- Σ (XW + b - Y)² in W and b: 2Xᵀ R and the column sums of 2R.
entry grad_bias [n][k][m] (x: [n][k]f32) (y: [n][m]f32) (w: [k][m]f32) (b: [m]f32) : ([k][m]f32, [m]f32) =
  vjp (\(w, b) -> sq_dist (map (\r -> map2 (\c bj -> dot r c + bj) (transpose w) b) x) y) (w, b) 1

-- Σ (XW)² with W read twice by the lambda: 2Xᵀ(XW).
entry grad_twice [n][k][m] (x: [n][k]f32) (w: [k][m]f32) : [k][m]f32 =
  vjp (\w -> f32.sum (map (\r -> f32.sum (map2 (\c d -> dot r c * dot r d) (transpose w) (transpose w))) x)) w 1

-- Σ (x_i·w_j)·x_i0, a scalar the row computes (an index) scaling the
-- product: W̄[k][j] = Σ_i x_ik·x_i0.
entry grad_scaled [n][k][m] (x: [n][k]f32) (w: [k][m]f32) : [k][m]f32 =
  vjp (\w -> f32.sum (map (\r -> f32.sum (map (\c -> dot r c * r[0]) (transpose w))) x)) w 1

-- Σ_i x_i0·Σ_jk w_kj², through a matrix each row computes from W (of
-- W's rank: summed as stacked rows): W̄ = 2(Σ_i x_i0)W.
entry grad_per_row_matrix [n][k][m] (x: [n][k]f32) (w: [k][m]f32) : [k][m]f32 =
  vjp (\w -> f32.sum (map (\r -> let t = map (map (* r[0])) (transpose w)
                                  in f32.sum (map2 dot t (transpose w))) x)) w 1

-- Σ tanh(XW₁/10)W₂ in both weights.
entry grad_tanh [n][k][h][o] (x: [n][k]f32) (w1: [k][h]f32) (w2: [h][o]f32) : ([k][h]f32, [h][o]f32) =
  vjp (\(w1, w2) -> f32.sum (map f32.sum (matmul (map (map (\v -> f32.tanh (v / 10))) (matmul x w1)) w2))) (w1, w2) 1
