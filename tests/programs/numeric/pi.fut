-- The constant pi.
-- ==
-- input { 1.0 }
-- output { 3.141592653589793 6.283185307179586 }
def main (x: f64): (f64, f64) = (f64.pi * x, 2 * f64.pi)
