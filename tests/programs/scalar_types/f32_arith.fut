-- f32 arithmetic on exactly representable values.
-- ==
-- input { 1.5f32 0.5f32 }
-- output { 2.0f32 1.0f32 0.75f32 3.0f32 }
-- input { -2.0f32 0.25f32 }
-- output { -1.75f32 -2.25f32 -0.5f32 -8.0f32 }
def main (x: f32) (y: f32): (f32, f32, f32, f32) =
  (x + y, x - y, x * y, x / y)
