-- Sum of f32 (issue 6/7 benchmark; anchor: torch.sum).
-- ==
-- input { [1f32, 2f32, 3f32] } output { 6f32 }
-- notest random input { [100000000]f32 }
def main (xs: []f32): f32 = reduce (+) 0 xs
