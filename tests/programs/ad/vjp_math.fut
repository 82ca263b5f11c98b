-- The derivatives of the math functions through `vjp`, by hand: sin' 0 = 1,
-- exp' 1 = e, log' 2 = 1/2, sqrt' 4 = 1/4, tanh' 0 = 1, erf' 0 = 2/√π,
-- atan2(y, x) at (1, 1) is (x, -y)/(x² + y²) = (0.5, -0.5), hypot(3, 4) is
-- (3, 4)/5.
-- ==
-- input { 0.0 }
-- output { 1.0 2.718281828459045 0.5 0.25 1.0 1.1283791670955126 0.5 -0.5 0.6 0.8 }
def main (z: f64) =
  let (ay, ax) = vjp (\(y, x) -> f64.atan2 y x) (1, 1) 1
  let (h3, h4) = vjp (\(a, b) -> f64.hypot a b) (3, 4) 1
  in ( vjp f64.sin z 1, vjp f64.exp 1 1, vjp f64.log 2 1, vjp f64.sqrt 4 1
     , vjp f64.tanh z 1, vjp f64.erf z 1, ay, ax, h3, h4 )

-- `max`, `min` and `abs` pass the adjoint to the operand they pick.
-- ==
-- entry: select
-- input { 1f32 5f32 }
-- output { 0f32 1f32 1f32 0f32 -1f32 }
entry select (a: f32) (b: f32) =
  let (xa, xb) = vjp (\(x, y) -> f32.max x y) (a, b) 1
  let (na, nb) = vjp (\(x, y) -> f32.min x y) (a, b) 1
  in (xa, xb, na, nb, vjp f32.abs (-2) 1)

-- A composition: d/dx sin(x²) = 2x cos(x²), at x = 1.5: 3 cos 2.25 =
-- -1.8845208681682175 (finite differences at h = 1e-6 agree to 8 digits).
-- ==
-- entry: chain
-- input { 1.5 }
-- output { -1.8845208681682175 }
entry chain (x: f64) = vjp (\a -> f64.sin (a * a)) x 1
