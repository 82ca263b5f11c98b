-- The float members the prelude derives: trunc, recip, from_fraction, pow,
-- isfinite, epsilon, pi, highest/lowest, minimum/product.
-- ==
-- input { -1.75f32 }
-- output { -1f32 -0.5714286f32 0.25f32 1024f32 true false 1.0000001f32 3.1415927f32 f32.inf -f32.inf -1.75f32 3.0625f32 }

def main (x: f32) =
  (f32.trunc x, f32.recip x, f32.from_fraction 1 4, f32.pow 2 10,
   f32.isfinite x, f32.isfinite (f32.recip 0),
   1 + f32.epsilon, f32.pi, f32.highest, f32.lowest,
   f32.minimum [x, 2], f32.product [x, x])
