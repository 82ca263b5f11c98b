-- f16 arithmetic on exactly representable values.
-- ==
-- input { 1.5f16 0.25f16 }
-- output { 1.75f16 0.375f16 1.5f32 }
def main (x: f16) (y: f16): (f16, f16, f32) =
  (x + y, x * y, f32.f16 x)
