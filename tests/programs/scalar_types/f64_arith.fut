-- f64 arithmetic on exactly representable values.
-- ==
-- input { 10.0 4.0 }
-- output { 14.0 6.0 40.0 2.5 }
def main (x: f64) (y: f64): (f64, f64, f64, f64) =
  (x + y, x - y, x * y, x / y)
