-- Infinities inside arrays.
-- ==
-- input { [2.0, 0.0, 4.0] }
-- output { [0.5, f64.inf, 0.25] [-0.5, -f64.inf, -0.25] }
def main (xs: []f64): ([]f64, []f64) =
  (map (\x -> 1 / x) xs, map (\x -> -1 / x) xs)
