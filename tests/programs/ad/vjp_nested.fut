-- Nested differentiation, by hand. Perturbation confusion avoided:
-- d/dx (d/dy x·y) = d/dx x = 1 (not 2), whichever the modes
-- (reverse over reverse, forward over reverse, reverse over forward);
-- (x³)'' = 6x = 12 at 2 by `vjp` of `vjp` and by `vjp` of `jvp`;
-- (x⁴)''' = 24x = 24 at 1 through three calls of both modes.
-- ==
-- input { 2.0 }
-- output { 1.0 1.0 1.0 12.0 12.0 24.0 }
def main (x: f64) =
  ( vjp (\a -> vjp (\b -> a * b) 1 1) x 1
  , jvp (\a -> vjp (\b -> a * b) 1 1) x 1
  , vjp (\a -> jvp (\b -> a * b) 1 1) x 1
  , vjp (\a -> vjp (\b -> b * b * b) a 1) x 1
  , vjp (\a -> jvp (\b -> b * b * b) a 1) x 1
  , vjp (\a -> jvp (\b -> vjp (\c -> c * c * c * c) b 1) a 1) (1: f64) 1 )

-- A Hessian-vector product by forward over reverse: f(x, y) = x²y has
-- the gradient (2xy, x²) and the Hessian [[2y, 2x], [2x, 0]]; at (1, 2)
-- in direction (1, 0) that is (4, 2).
-- ==
-- entry: hvp
-- input { 1.0 2.0 }
-- output { 4.0 2.0 }
entry hvp (x: f64) (y: f64) =
  jvp (\p -> vjp (\(a, b) -> a * a * b) p 1) (x, y) (1, 0)

-- Futhark's ad/confusion0.fut, both modes.
-- ==
-- entry: fwd rev
-- input { 1 2 } output { 1 }
def d f x = jvp f x 1

def drev f x = vjp f x 1

entry fwd (x: i32) (y: i32) = d (\x' -> (d (x' *) y)) x

entry rev (x: i32) (y: i32) = drev (\x' -> (drev (x' *) y)) x
