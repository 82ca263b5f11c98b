-- f64.abs and negation of floats.
-- ==
-- input { -0.5 }
-- output { 0.5 0.5 -1.5 }
def main (x: f64): (f64, f64, f64) = (f64.abs x, -x, x - 1)
