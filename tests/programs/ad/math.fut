-- The derivatives of the float module functions, at 0.5 (acosh at 2),
-- worked out from their formulas (exp' = exp, log' = 1/x, sin' = cos,
-- tan' = 1/cos², sqrt' = 1/(2 sqrt x), tanh' = 1 - tanh², asin' =
-- 1/sqrt(1-x²), atan' = 1/(1+x²), log2' = 1/(x ln 2), cbrt' =
-- 1/(3 x^(2/3)), erf' = 2/sqrt(pi) e^(-x²), ...) and checked by finite
-- differences.
-- ==
-- input { 0.5 }
-- output { [1.6487212707001282, 2.0, 0.8775825618903728, -0.479425538604203,
--           1.2984464104095248, 0.7071067811865475, 0.7864477329659274,
--           1.1547005383792517, -1.1547005383792517, 0.8,
--           1.1276259652063807, 0.5210953054937474, 0.8944271909999159,
--           1.3333333333333333, 2.8853900817779268, 0.8685889638065035,
--           0.6666666666666666, 0.5291336839893999, 0.8787825789354448,
--           -0.8787825789354448, 0.5773502691896258] }
def main (x: f64): []f64 =
  let d f = jvp f x 1
  in [ d f64.exp, d f64.log, d f64.sin, d f64.cos, d f64.tan, d f64.sqrt, d f64.tanh
     , d f64.asin, d f64.acos, d f64.atan, d f64.sinh, d f64.cosh, d f64.asinh
     , d f64.atanh, d f64.log2, d f64.log10, d f64.log1p, d f64.cbrt, d f64.erf
     , d f64.erfc, jvp f64.acosh 2 1 ]

-- Two-argument functions in direction (1, 1): x ** y at (0.5, 3) is
-- y x^(y-1) + x^y ln x = 0.75 - 0.125 ln 2 = 0.66335660; atan2 0.5 2 is
-- (2 - 0.5)/(0.25 + 4) = 0.35294118; hypot 3 4 in direction (1, 2) is
-- (3 + 8)/5 = 2.2. `0 ** y` has tangent y·0^(y-1) and no `log 0` term:
-- 1 at y = 1, and `0 ** 0` has tangent 0 (as in Futhark).
-- ==
-- entry: binary
-- input { 0.5f32 3f32 }
-- output { 0.66335660f32 0.35294118f32 2.2f32 1f32 0f32 }
entry binary (x: f32) (y: f32) =
  ( jvp (\(a, b) -> a ** b) (x, y) (1, 1)
  , jvp (\(a, b) -> f32.atan2 a b) (x, 2) (1, 1)
  , jvp (\(a, b) -> f32.hypot a b) (3, 4) (1, 2)
  , jvp (\(a, b) -> a ** b) (0f32, 1f32) (1, 1)
  , jvp (\(a, b) -> a ** b) (0f32, 0f32) (1, 1)
  )

-- min, max, abs, floor, fma and conversions: d max(x, 2x) at -1 picks x
-- (1); d abs at -3 is -1; floor has tangent 0; fma(x, x, x) gives 2x + 1 =
-- 5 at 2; f64.f32 carries the tangent over (3 for f32 tangent 3); f16
-- sin at 0 has tangent cos 0 = 1.
-- ==
-- entry: misc
-- input { -1f32 }
-- output { 1f32 -1f32 0f32 5f32 3.0 1f16 }
entry misc (x: f32) =
  ( jvp (\a -> f32.max a (2 * a)) x 1
  , jvp f32.abs (-3) 1
  , jvp f32.floor 2.5 1
  , jvp (\a -> f32.fma a a a) 2 1
  , jvp (\a -> f64.f32 a) x 3
  , jvp f16.sin 0 1
  )
