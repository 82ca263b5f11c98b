-- The gradient of k-means' objective Σ_p min_c ‖p - c‖² in the centres
-- (issue 27's benchmarks; scripts/ad-bench.py). Small case by hand: points
-- 0, 1 and 10 on a line, centres 0.5 and 9: the first two go to 0.5
-- (∂ = 2(0.5 - 0) + 2(0.5 - 1) = 0), the third to 9 (∂ = 2(9 - 10) = -2).
-- ==
-- entry: grad
-- input { [[0f32], [1f32], [10f32]] [[0.5f32], [9f32]] }
-- output { [[0f32], [-2f32]] }

def cost [n][d][k] (ps: [n][d]f32) (cs: [k][d]f32) : f32 =
  f32.sum (map (\p -> f32.minimum (map (\c -> f32.sum (map2 (\a b -> (a - b) * (a - b)) p c)) cs)) ps)

entry primal [n][d][k] (ps: [n][d]f32) (cs: [k][d]f32) = cost ps cs
entry grad [n][d][k] (ps: [n][d]f32) (cs: [k][d]f32) = vjp (cost ps) cs 1
