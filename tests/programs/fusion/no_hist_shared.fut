-- Not fusible into the histogram: the buckets are also returned.
-- ==
-- input { [1i64, 2i64, 1i64] }
-- output { [0i32, 2i32, 1i32] [1i64, 2i64, 1i64] }
-- structure { Hist 1 Map 1 }

def main (xs: []i64): ([]i32, []i64) =
  let bs = map (% 3) xs
  in (hist (+) 0 3 bs (map (\_ -> 1) xs), bs)
