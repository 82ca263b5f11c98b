-- f32.maximum, f32.minimum and f32.sum.
-- ==
-- input { [1.5f32, -0.5f32, 2.25f32] }
-- output { 2.25f32 -0.5f32 3.25f32 }
def main (xs: []f32): (f32, f32, f32) =
  (f32.maximum xs, f32.minimum xs, f32.sum xs)
