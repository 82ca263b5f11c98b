-- The rows of a Jacobian with `mjp` (a map of `vjp`): f(a, b) =
-- (ab, a + b²) at (2, 3) has the rows (3, 2) and (1, 6); `mjp2` gives the
-- primal (6, 11) too.
-- ==
-- input { 2f32 3f32 }
-- output { [[3f32, 2f32], [1f32, 6f32]] 6f32 11f32 }
def f (a: f32, b: f32) = (a * b, a + b * b)

def main (x: f32) (y: f32) =
  let ((p, q), rows) = mjp2 f (x, y) [(1, 0), (0, 1)]
  in (map (\(a, b) -> [a, b]) rows, p, q)
