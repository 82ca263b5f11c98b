-- Arithmetic on infinities.
-- ==
-- input { 1.0 }
-- output { f64.inf f64.nan -f64.inf }
def main (x: f64): (f64, f64, f64) =
  (f64.inf + x, f64.inf - f64.inf, -f64.inf * x)
