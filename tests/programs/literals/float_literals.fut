-- Float literals: exponents, suffixes, and integral-looking suffixed floats.
-- ==
-- input { 0.0 }
-- output { 1000.0 0.25 1.5f32 3.0f32 150.0 }
def main (x: f64): (f64, f64, f32, f32, f64) =
  (1e3 + x, 2.5e-1 + x, 1.5f32, 3f32, 1.5e2 + x)
