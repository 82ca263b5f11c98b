-- Classifying special floating-point values.
-- ==
-- input { 1.0f32 }
-- output { true false false true false false }
def main (x: f32): (bool, bool, bool, bool, bool, bool) =
  (f32.isnan f32.nan, f32.isnan x, f32.isinf f32.nan,
   f32.isinf (-f32.inf), f32.isinf x, f32.nan == f32.nan)
