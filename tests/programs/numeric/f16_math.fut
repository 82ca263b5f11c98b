-- f16 math functions at arguments whose results are exact in f16: sqrt,
-- floor/ceil/round (ties to even)/trunc, abs, sgn, min/max, hypot,
-- copysign, fma, lerp, exp/log/log2/cbrt at easy points, NaN and
-- infinity tests, `**`, `%` and `to_i64`.
-- ==
-- input { 6.25f16 -1.5f16 }
-- output { 2.5f16 -2.0f16 -1.0f16 -2.0f16 -1.0f16 1.5f16 -1.0f16 -1.5f16 6.25f16 5.0f16 -6.25f16 -8.375f16 3.125f16 1.0f16 0.0f16 3.0f16 2.0f16 true true true 2.5f16 2.25f16 6i64 }
-- input { 0.25f16 2.5f16 }
-- output { 0.5f16 2.0f16 3.0f16 2.0f16 2.0f16 2.5f16 1.0f16 0.25f16 2.5f16 5.0f16 0.25f16 1.625f16 0.125f16 1.0f16 0.0f16 3.0f16 2.0f16 false true true 0.5f16 0.25f16 0i64 }
def main (a: f16) (b: f16) =
  ( f16.sqrt a, f16.floor b, f16.ceil b, f16.round b, f16.trunc b
  , f16.abs b, f16.sgn b, f16.min a b, f16.max a b, f16.hypot 3 4
  , f16.copysign a b, f16.fma a b 1, f16.lerp 0 a 0.5
  , f16.exp 0, f16.log 1, f16.log2 8, f16.cbrt 8
  , f16.isnan (f16.sqrt b), f16.isinf (a / 0), f16.isfinite a
  , a ** 0.5, a % 4, f16.to_i64 a )
