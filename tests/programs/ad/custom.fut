-- Custom adjoints: `with_vjp f f' x` is `f x`, but reverse mode takes
-- `f' (f x) y'` as the adjoint of `x` instead of differentiating `f`.

-- A straight-through estimator: round, with the identity's adjoint. The
-- derivative of 3·round x is 3 through it, 0 through round itself;
-- forward mode differentiates round (0); the value is round 2.3 = 2.
-- ==
-- input { 2.3 }
-- output { 3.0 0.0 0.0 2.0 }
def ste (x: f64) = with_vjp f64.round (\_ yb -> yb) x

def main (x: f64) =
  ( vjp (\a -> ste a * 3) x 1
  , vjp (\a -> f64.round a * 3) x 1
  , jvp (\a -> ste a * 3) x 1
  , ste x
  )

-- The tape variant: f keeps x beside its result x², and the adjoint
-- function gets it with the cotangent: 2·x·y'·10 = 46 at 2.3 (ten times
-- the true derivative, to show which one is used).
-- ==
-- entry: taped
-- input { 2.3 }
-- output { 46.0 }
entry taped (x: f64) =
  vjp (\a -> with_vjp_tape (\b -> (b, b * b)) (\(t, yb) -> 2 * t * yb * 10) a) x 1

-- On arrays, in a map's lambda: a clipped gradient (the custom adjoint
-- clips to [-1, 1]) of Σ 5xᵢ, whose true gradient is 5.
-- ==
-- entry: clipped
-- input { [1.0, -2.0, 3.0] }
-- output { [1.0, 1.0, 1.0] }
entry clipped (xs: []f64) =
  let clip (v: f64) = with_vjp (\a -> a * 5) (\_ yb -> f64.min 1 (f64.max (-1) (yb * 5))) v
  in vjp (\ys -> f64.sum (map clip ys)) xs 1
