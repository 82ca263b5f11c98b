-- A concat of two freshly mapped arrays (seed 003's first case):
-- mem-short-circuit makes both maps write into the concat's block, so
-- nothing is copied (Note [Short-circuiting]).
-- ==
-- input { [1f32, 2f32] [3f32] } output { [3f32, 5f32, 2f32] }
-- notest random input { [50000000]f32 [50000000]f32 }
def main (xs: []f32) (ys: []f32): []f32 =
  concat (map (\x -> 2 * x + 1) xs) (map (\y -> y - 1) ys)
