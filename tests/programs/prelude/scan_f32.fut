-- Scan on floating-point values.
-- ==
-- input { [0.5f32, 0.25f32, 1.0f32] }
-- output { [0.5f32, 0.75f32, 1.75f32] }
def main (xs: []f32): []f32 = scan (+) 0 xs
