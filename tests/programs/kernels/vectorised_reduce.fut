-- A reduction with a vectorised operator is a segmented reduction over
-- the columns (Note [Array reductions]), not a kernel per row.
-- ==
-- input { [[1f32, 2f32], [3f32, 4f32], [5f32, 6f32]] }
-- output { [9f32, 12f32] }
-- structure gpu { SegRed 1 SegMap 0 }
def main [n] [m] (xss: [n][m]f32) : [m]f32 =
  reduce (map2 (+)) (replicate m 0) xss
