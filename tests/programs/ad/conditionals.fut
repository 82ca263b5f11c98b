-- `jvp` through `if`: x² for positive x (tangent 2x = 6 at 3), -x
-- otherwise (tangent -1 at -2); inside a map, with a branch that does
-- not depend on x (tangent 0).
-- ==
-- input { 3.0 -2.0 }
-- output { 6.0 -1.0 [0.0, 4.0, 6.0] }
def f (x: f64) = if x > 0 then x * x else -x

def main (a: f64) (b: f64) =
  (jvp f a 1, jvp f b 1, jvp (map (\x -> if x > 0 then x * x else 0)) [-1f64, 2, 3] [1, 1, 1])
