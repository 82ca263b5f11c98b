-- f32.sqrt, f32.abs, f32.floor and f32.ceil.
-- ==
-- input { 16.0f32 -2.5f32 }
-- output { 4.0f32 2.5f32 -3.0f32 -2.0f32 }
-- input { 2.25f32 2.25f32 }
-- output { 1.5f32 2.25f32 2.0f32 3.0f32 }
def main (x: f32) (y: f32): (f32, f32, f32, f32) =
  (f32.sqrt x, f32.abs y, f32.floor y, f32.ceil y)
