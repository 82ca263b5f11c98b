-- Counting occurrences and computing a cumulative distribution.
-- ==
-- input { [0i64, 2i64, 2i64, 1i64, 3i64, 2i64] }
-- output { [1, 1, 3, 1] [1, 2, 5, 6] }
def main (xs: []i64): ([]i32, []i32) =
  let counts = hist (+) 0 4 xs (map (\_ -> 1) xs)
  in (counts, scan (+) 0 counts)
