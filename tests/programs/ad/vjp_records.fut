-- `vjp` on records and tuples: x·y + y at {x = 2, y = 3} gives
-- {x = 3, y = 3}; a tuple result (x², 3x) with cotangent (1, 10) gives
-- 2x + 30 = 34 at 2; an array of pairs (x, x²) with cotangents (1, 1)
-- gives 1 + 2x.
-- ==
-- input { 2.0 }
-- output { 3.0 3.0 34.0 [3.0, 5.0] }
def main (z: f64) =
  let g = vjp (\{x, y} -> x * y + y) {x = z, y = 3} 1
  in ( g.x, g.y
     , vjp (\a -> (a * a, 3 * a)) z (1, 10)
     , vjp (map (\a -> (a, a * a))) [1, 2f64] [(1, 1), (1, 1)] )

-- An array of pairs as the argument: Σ a·b gives each pair (b, a).
-- ==
-- entry: pairs
-- input { [1f32, 3f32] [2f32, 4f32] }
-- output { [2f32, 4f32] [1f32, 3f32] }
entry pairs (as: []f32) (bs: []f32) =
  unzip (vjp (\ps -> f32.sum (map (\(a, b) -> a * b) ps)) (zip as bs) 1)
