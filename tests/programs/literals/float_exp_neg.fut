-- Float literals with negative exponents and f32 suffix.
-- ==
-- input { 1.0f32 }
-- output { 1.125f32 0.5f64 }
def main (x: f32): (f32, f64) =
  (x + 1.25e-1f32, 5e-1)
