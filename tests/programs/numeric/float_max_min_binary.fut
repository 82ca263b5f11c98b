-- Binary f64.max and f64.min.
-- ==
-- input { 1.5 -2.0 }
-- output { 1.5 -2.0 }
def main (x: f64) (y: f64): (f64, f64) = (f64.max x y, f64.min x y)
