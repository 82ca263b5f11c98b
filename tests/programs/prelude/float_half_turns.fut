-- `sinpi`, `cospi`, `tanpi` (of `pi*x`): exact at whole and half turns
-- (also of a large `x`), with infinities where the cosine is 0; the
-- inverse functions in half turns (`asinpi x = asin x / pi`, ...),
-- `atan2pi` and `rsqrt`, for f64, f32 and f16.
-- ==
-- input { 0.5 }
-- output { 1.0 0.0 f64.inf }
-- input { 1.0 }
-- output { 0.0 -1.0 -0.0 }
-- input { -1.5 }
-- output { 1.0 0.0 f64.inf }
-- input { 0.25 }
-- output { 0.7071067811865476 0.7071067811865476 1.0 }
-- input { 0.16666666666666666 }
-- output { 0.5 0.8660254037844386 0.5773502691896258 }
-- input { 1e20 }
-- output { 0.0 1.0 0.0 }
-- input { f64.inf }
-- output { f64.nan f64.nan f64.nan }
def main (x: f64): (f64, f64, f64) = (f64.sinpi x, f64.cospi x, f64.tanpi x)

-- ==
-- entry: single
-- input { 0.5f32 }
-- output { 1f32 0f32 f32.inf }
-- input { 2.5f32 }
-- output { 1f32 0f32 f32.inf }
-- input { -0.25f32 }
-- output { -0.70710677f32 0.70710677f32 -1f32 }
-- input { 3f32 }
-- output { 0f32 -1f32 -0f32 }
entry single (x: f32): (f32, f32, f32) = (f32.sinpi x, f32.cospi x, f32.tanpi x)

-- ==
-- entry: half
-- input { 0.5f16 }
-- output { 1f16 0f16 f16.inf }
-- input { 1f16 }
-- output { 0f16 -1f16 -0f16 }
-- input { 0.25f16 }
-- output { 0.70710677f16 0.70710677f16 1f16 }
-- input { 2048f16 }
-- output { 0f16 1f16 0f16 }
entry half (x: f16): (f16, f16, f16) = (f16.sinpi x, f16.cospi x, f16.tanpi x)

-- ==
-- entry: inverse
-- input { 1.0 }
-- output { 0.5 0.0 0.25 0.75 1.0 }
-- input { 0.5 }
-- output { 0.16666666666666666 0.3333333333333333 0.14758361765043326 0.8524163823495667 1.4142135623730951 }
-- input { -1.0 }
-- output { -0.5 1.0 -0.25 -0.75 f64.nan }
-- input { 0.0 }
-- output { 0.0 0.5 0.0 1.0 f64.inf }
entry inverse (x: f64): (f64, f64, f64, f64, f64) =
  (f64.asinpi x, f64.acospi x, f64.atanpi x, f64.atan2pi x (-1), f64.rsqrt x)

-- ==
-- entry: inverse_small
-- input { 0.5f32 }
-- output { 0.16666667f32 0.33333334f32 0.14758362f32 0.85241638f32 1.4142135f32
--          0.16666667f16 0.33333334f16 0.14758362f16 0.85241638f16 1.4142135f16 }
entry inverse_small (x: f32) =
  let h = f16.f32 x
  in ( f32.asinpi x, f32.acospi x, f32.atanpi x, f32.atan2pi x (-1), f32.rsqrt x
     , f16.asinpi h, f16.acospi h, f16.atanpi h, f16.atan2pi h (-1), f16.rsqrt h )
