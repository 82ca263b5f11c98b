-- Nested `jvp`: higher derivatives. (x³)'' = 6x = 12 at 2; sin''' = -cos,
-- -1 at 0; and the inner call's perturbation stays apart from the
-- outer's: d/dx (d/dy x·y) = d/dx x = 1, not 2.
-- ==
-- input { 2.0 }
-- output { 12.0 -1.0 1.0 }
def d (f: f64 -> f64) (x: f64) = jvp f x 1

def main (x: f64) =
  (d (d (\y -> y * y * y)) x, d (d (d f64.sin)) 0, d (\a -> d (\y -> a * y) 1) x)

-- The columns of a Jacobian with `jmp` (a map of `jvp`): f(x, y) = (xy,
-- x + y²) at (2, 3) has columns (3, 1) and (2, 6).
-- ==
-- entry: jacobian
-- input { 2f32 3f32 }
-- output { [[3f32, 1f32], [2f32, 6f32]] }
entry jacobian (x: f32) (y: f32) =
  map (\(a, b) -> [a, b]) (jmp (\(a, b) -> (a * b, a + b * b)) (x, y) [(1, 0), (0, 1)])
