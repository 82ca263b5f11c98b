-- Sum and sum of squares (k-means-style reductions on tuples) in one pass.
-- ==
-- input { [1f64, 2f64, 3f64, 4f64] }
-- output { 10.0f64 30.0f64 }
-- structure { Screma 1 Redomap 1 }

def main (xs: []f64): (f64, f64) =
  reduce (\(a, b) (c, d) -> (a + c, b + d)) (0, 0) (map (\x -> (x, x * x)) xs)
