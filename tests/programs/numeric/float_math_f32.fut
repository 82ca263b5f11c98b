-- The unary float functions in f32 and f16, and their special values:
-- log2 0 is -inf, asin outside [-1, 1] is NaN, atanh 1 is inf.
-- ==
-- input { [0.5f32, 2.0f32, 8.0f32] }
-- output {
--   [0.7937005f32, 1.2599211f32, 2.0f32]
--   [-1.0f32, 1.0f32, 3.0f32]
--   [0.52109528f32, 3.6268604f32, 1490.4788f32]
--   [0.46211716f32, 0.9640276f32, 0.99999977f32]
--   [0.79394531f16, 1.2597656f16, 2.0f16]
--   [0.46215820f16, 0.96386719f16, 1.0f16]
--   -f32.inf f32.nan f32.inf f64.nan
-- }
def main (xs: []f32) =
  ( map f32.cbrt xs, map f32.log2 xs, map f32.sinh xs, map f32.tanh xs
  , map (\x -> f16.cbrt (f16.f32 x)) xs, map (\x -> f16.tanh (f16.f32 x)) xs
  , f32.log2 0, f32.asin 2, f32.atanh 1, f64.acosh 0.5 )
