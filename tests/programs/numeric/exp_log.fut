-- exp and log at points with exact results.
-- ==
-- input { 0.0 1.0 }
-- output { 1.0 0.0 1.0f32 0.0f32 }
def main (x: f64) (y: f64): (f64, f64, f32, f32) =
  (f64.exp x, f64.log y, f32.exp (f32.f64 x), f32.log (f32.f64 y))
