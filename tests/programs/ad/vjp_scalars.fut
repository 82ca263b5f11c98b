-- `vjp` on scalar functions, by hand. x·y at (3, 4): (y, x) = (4, 3);
-- x³ at 2: 3x² = 12; x/y at (8, 2): (1/y, -x/y²) = (0.5, -2);
-- -(x - 2y) with cotangent 3: (-3, 6); a number the function does not use
-- gets 0.
-- ==
-- input { 3.0 4.0 }
-- output { 4.0 3.0 12.0 0.5 -2.0 -3.0 6.0 2.0 0.0 }
def main (x: f64) (y: f64) =
  let (gx, gy) = vjp (\(a, b) -> a * b) (x, y) 1
  let (dx, dy) = vjp (\(a, b) -> a / b) (8f64, 2f64) 1
  let (nx, ny) = vjp (\(a, b) -> -(a - 2 * b)) (1f64, 1f64) 3
  let (ux, uy) = vjp (\(a, b: f64) -> a * 2) (1f64, 5) 1
  in (gx, gy, vjp (\a -> a * a * a) (2: f64) 1, dx, dy, nx, ny, ux, uy)

-- `vjp2` gives the primal too: x² at 3 is 9, its derivative 6.
-- ==
-- entry: primal
-- input { 3f32 }
-- output { 9f32 6f32 }
entry primal (x: f32) = vjp2 (\a -> a * a) x 1

-- a ** b at (2, 3): (b a^(b-1), a^b log a) = (12, 8 ln 2).
-- ==
-- entry: pow
-- input { 2.0 3.0 }
-- output { 12.0 5.545177444479562 }
entry pow (a: f64) (b: f64) = vjp (\(x, y) -> x ** y) (a, b) 1

-- Integers are differentiated in their own arithmetic, as Futhark does:
-- x² at 3 is 6, and x·y with cotangent 2 is 2y, wrapping (ad/imul.fut).
-- ==
-- entry: ints
-- input { 3i32 2000000000i32 }
-- output { 6i32 -294967296i32 }
entry ints (x: i32) (y: i32) = (vjp (\a -> a * a) x 1, vjp (\a -> a * y) 7 2)

-- A boolean's adjoint is `false`; a conversion carries the adjoint back
-- to the argument's type: d(2·f64(x)) = 2, d(f64(n)) = 1 in i32.
-- ==
-- entry: conversions
-- input { 1.5f32 3i32 }
-- output { -1.0 false 2f32 1i32 }
entry conversions (x: f32) (n: i32) =
  let (gb, bb) = vjp (\(a: f64, b: bool) -> if b then -a else a) (2, true) 1
  in (gb, bb, vjp (\a -> f64.f32 a * 2) x 1, vjp (\k -> f64.i32 k) n 1)
