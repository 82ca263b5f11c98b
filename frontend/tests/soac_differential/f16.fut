-- ==
-- input { [1.5f16, -2.5f16, 0.0f16, 3.75f16] [2.0f16, 0.5f16, -1.0f16, 2.0f16] }
def main (xs: []f16) (ys: []f16) =
  (map2 (+) xs ys, map2 (*) xs ys, map2 (/) xs ys, map f16.sqrt (map f16.abs xs), map f32.f16 xs,
   map f16.i32 [1, 2, 70000], f16.sum xs, map f16.to_bits xs, f16.highest, f16.lowest, f16.epsilon)
