-- `jvp` and `jvp2` of scalar functions: the tangent in one direction, the
-- primal beside it, several inputs and results as tuples, integers
-- (differentiated in their own arithmetic, as in Futhark) and booleans
-- (no tangent: `false`). By hand: f(x, y) = x*y + x/y at (3, 2) is 7.5,
-- df/dx = y + 1/y = 2.5, df/dy = x - x/y² = 2.25.
-- ==
-- input { 3.0 2.0 }
-- output { 7.5 2.5 2.25 }
def f (x: f64, y: f64) = x * y + x / y

def main (x: f64) (y: f64) =
  let (p, dx) = jvp2 f (x, y) (1, 0)
  in (p, dx, jvp f (x, y) (0, 1))

-- Subtraction, negation and a tangent of 0.5: d(x - 2y - (-x)) in
-- direction (0.5, 1) is 0.5 - 2 + 0.5 = -1.
-- ==
-- entry: sub_neg
-- input { 1f32 4f32 }
-- output { -1f32 }
entry sub_neg (x: f32) (y: f32) = jvp (\(a, b) -> a - 2 * b - (-a)) (x, y) (0.5, 1)

-- Integers: d(x³)/dx = 3x² = 27 at 3; integer division d(x*x/2) = x (with
-- the quotient rule in integer arithmetic, (2x·2 - 0)/4 = x): 3.
-- ==
-- entry: ints
-- input { 3 }
-- output { 27 3 }
entry ints (x: i32) = (jvp (\a -> a * a * a) x 1, jvp (\a -> a * a / 2) x 1)

-- A boolean input has no tangent (the `false` given is ignored), and a
-- boolean result's tangent is `false`.
-- ==
-- entry: bools
-- input { 3.0 }
-- output { 6.0 true false 4.0 1.0 }
entry bools (x: f64) =
  let t = jvp (\(b, a) -> if b then a * a else -a) (true, x) (false, 1)
  let ((b, y), (db, dy)) = jvp2 (\a -> (a > 0, a + 1)) x 1
  in (t, b, db, y, dy)

-- A call that stays a call (`#[noinline]`) is differentiated through its
-- callee's body: d(x² + x) = 2x + 1 = 7 at 3.
-- ==
-- entry: call
-- input { 3f32 }
-- output { 7f32 }
#[noinline]
def square (x: f32) = x * x

entry call (x: f32) = jvp (\a -> square a + a) x 1
