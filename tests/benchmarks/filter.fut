-- Keep the elements above 0.5 (anchor: x[x > 0.5] in PyTorch). The big
-- dataset is for `futmlir bench` only (`notest`).
-- ==
-- input { [0.25f32, 0.75f32, 0.5f32, 1f32, 0f32] } output { [0.75f32, 1f32] }
-- input { [0.5f32] } output { empty([0]f32) }
-- notest random input { [100000000]f32 }
def main (xs: []f32): []f32 = filter (> 0.5) xs
