-- fma rounds a*b+c once, mad rounds the product and the sum: with a*b
-- just below 1 the product rounds to 1 and mad gives 0 where fma keeps
-- the difference. lerp v0 v1 t is v0 + (v1-v0)*t.
-- ==
-- input { 1.0000000009313226 0.9999999990686774 1.0001220703125f32 0.9998779296875f32 }
-- output { -8.673617379884035e-19 0.0 -1.4901161e-8f32 0.0f32 1.5 -5.0 0.75f32 1.5f16 7.0f16 }
def main (a: f64) (b: f64) (c: f32) (d: f32) =
  ( f64.fma a b (-1), f64.mad a b (-1), f32.fma c d (-1), f32.mad c d (-1)
  , f64.lerp 1 3 0.25, f64.lerp 10 0 1.5, f32.lerp 0 1 0.75
  , f16.lerp 1 2 0.5, f16.fma 2 3 1 )
