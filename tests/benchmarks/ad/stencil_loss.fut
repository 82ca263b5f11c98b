-- The gradient through 100 steps of a clamped 5-point stencil of the sum
-- of squares of the result (issue 27's benchmarks; scripts/ad-bench.py).
-- Small case by hand, one point: every step keeps it (0.2 · 5x = x), so
-- the loss is x² and the gradient 2x = 6 at 3.
-- ==
-- entry: grad
-- input { [[3f32]] }
-- output { [[6f32]] }

def step [n][m] (g: [n][m]f32) : [n][m]f32 =
  tabulate_2d n m (\i j ->
    let at a b = g[i64.min (n - 1) (i64.max 0 a)][i64.min (m - 1) (i64.max 0 b)]
    in 0.2f32 * (at i j + at (i - 1) j + at (i + 1) j + at i (j - 1) + at i (j + 1)))

def loss [n][m] (g: [n][m]f32) : f32 =
  let r = loop g for _i < 100 do step g
  in f32.sum (map (\row -> f32.sum (map (\x -> x * x) row)) r)

entry primal [n][m] (g: [n][m]f32) = loss g
entry grad [n][m] (g: [n][m]f32) = vjp loss g 1
