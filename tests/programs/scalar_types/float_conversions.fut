-- Conversions between floats and integers; float-to-int truncates toward zero.
-- ==
-- input { 3 2.75f32 -2.75f32 }
-- output { 3.0f32 2 -2 2.75f64 -3i64 0.25f32 }
def main (a: i32) (b: f32) (c: f32): (f32, i32, i32, f64, i64, f32) =
  (f32.i32 a, i32.f32 b, i32.f32 c, f64.f32 b, i64.f64 (-3.5), f32.f64 0.25)
