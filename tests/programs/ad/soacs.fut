-- `jvp` through the SOACs, checked by hand. `map`: d(x²) = 2x.
-- ==
-- input { [1f32, 2f32, 3f32] }
-- output { [2f32, 4f32, 6f32] }
def main (xs: []f32) = jvp (map (\x -> x * x)) xs (map (const 1) xs)

-- Reductions: the sum of squares (a map and a reduce, fused) in direction
-- ones is Σ 2x = 12; the product in direction (1, 0, 0) is x1·x2 = 6, in
-- direction ones x1x2 + x0x2 + x0x1 = 11; `max` (an operator other than
-- + and *) passes on the tangent of the maximum: 20.
-- ==
-- entry: reductions
-- input { [1f32, 2f32, 3f32] }
-- output { 12f32 6f32 11f32 20f32 }
entry reductions (xs: []f32) =
  ( jvp (\ys -> f32.sum (map (\y -> y * y) ys)) xs [1, 1, 1]
  , jvp f32.product xs [1, 0, 0]
  , jvp f32.product xs [1, 1, 1]
  , jvp (reduce f32.max (-f32.inf)) [1, 5, 3] [10, 20, 30]
  )

-- Scans: `+` scans the tangents; the prefix products [1, 2, 6] have the
-- tangents [1, 1·2 + 1·1, 2·3 + 1·3 + 1·2] = [1, 3, 11].
-- ==
-- entry: scans
-- input { [1f32, 2f32, 3f32] }
-- output { [1f32, 1f32, 3f32] [1f32, 3f32, 11f32] }
entry scans (xs: []f32) =
  (jvp (scan (+) 0) xs [1, 0, 2], jvp (scan (*) 1) xs [1, 1, 1])

-- Histograms and scatter: buckets [x·1 + x·3, x·2] have tangents [4, 2];
-- writing [x, x²] to places 2 and 0 gives the tangents [2x, 0, 1] = [6, 0, 1]
-- at x = 3.
-- ==
-- entry: hist_scatter
-- input { 3f32 }
-- output { [4f32, 2f32] [6f32, 0f32, 1f32] }
entry hist_scatter (x: f32) =
  ( jvp (\a -> reduce_by_index (replicate 2 0) (+) 0 [0, 1, 0] (map (* a) [1, 2, 3])) x 1
  , jvp (\a -> scatter (replicate 3 0) [2, 0] [a, a * a]) x 1
  )

-- Array operations: an in-place update with an indexed product (xs[1]
-- becomes x0·x2, tangent x2 + x0 = 4 in direction ones); `filter` keeps
-- the tangents of the rows it keeps; `rotate` and `++` move them.
-- ==
-- entry: arrays
-- input { [1f64, 2f64, 3f64] }
-- output { [1f64, 4f64, 1f64] [2f64, 2f64] [2f64, 3f64, 1f64, 1f64, 2f64, 3f64] }
entry arrays (xs: []f64) =
  ( jvp (\ys -> copy ys with [1] = ys[0] * ys[2]) xs [1, 1, 1]
  , jvp (\ys -> map (* 2) (filter (> 1.5) ys)) xs [1, 1, 1]
  , jvp (\ys -> rotate 1 ys ++ ys) xs [1, 2, 3]
  )

-- Random inputs, the expected outputs from the interpreter (dual
-- numbers): the compiled tangent program (`soac-jvp`) must agree. A
-- loss of a 2-layer network, differentiated in the direction of the
-- weights: a map of dot products, `tanh`, a sum of squares.
-- ==
-- entry: mlp
-- random input { [8][4]f32 [4]f32 [8][4]f32 [8]f32 }
-- auto output
entry mlp [h] [d] (w: [h][d]f32) (x: [d]f32) (dw: [h][d]f32) (v: [h]f32) =
  let loss (w: [h][d]f32) =
    let hidden = map (\row -> f32.tanh (f32.sum (map2 (*) row x))) w
    in f32.sum (map2 (\a b -> (a * b - 1) ** 2) hidden v)
  in jvp2 loss w dw
