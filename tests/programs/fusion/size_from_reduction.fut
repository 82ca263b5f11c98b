-- A reduction result used as a size later: it is still a result of the
-- fused SOAC.
-- ==
-- input { [1i64, 2i64, 3i64] }
-- output { [0i64, 1i64, 2i64] }
-- structure { Screma 1 Redomap 1 }

def main (xs: []i64): []i64 =
  let n = reduce (+) 0 (map (\x -> x - 1) xs)
  in iota n
