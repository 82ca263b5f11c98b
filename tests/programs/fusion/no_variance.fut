-- Mean and then variance: the second pass depends on the mean, so two
-- SOACs stay.
-- ==
-- input { [1f64, 2f64, 3f64, 4f64] }
-- output { 1.25f64 }
-- structure { Screma 2 Reduce 1 Redomap 1 }

def main [n] (xs: [n]f64): f64 =
  let mean = reduce (+) 0 xs / f64.i64 n
  in reduce (+) 0 (map (\x -> (x - mean) * (x - mean)) xs) / f64.i64 n
