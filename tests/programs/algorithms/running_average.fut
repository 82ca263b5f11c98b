-- Prefix sums divided by their counts.
-- ==
-- input { [2.0, 4.0, 6.0, 0.0] }
-- output { [2.0, 3.0, 4.0, 3.0] }
def main (xs: []f64): []f64 =
  let sums = scan (+) 0 xs
  in map2 (\s i -> s / f64.i64 (i + 1)) sums (indices xs)
