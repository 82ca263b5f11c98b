-- Dot product of f32 (anchor: torch.dot); map fuses into the reduction.
-- ==
-- input { [1f32, 2f32, 3f32] [4f32, 5f32, 6f32] } output { 32f32 }
-- notest random input { [100000000]f32 [100000000]f32 }
def main (xs: []f32) (ys: []f32): f32 = reduce (+) 0 (map2 (*) xs ys)
