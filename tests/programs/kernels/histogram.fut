-- A histogram over a map: fused, then one seghist.
-- ==
-- input { [1, 5, 2, 9, 5, 5, 0] }
-- output { [1, 1, 1, 0, 0, 3] }
-- structure gpu { SegHist 1 SegMap 0 }

def main (xs: []i32): []i32 =
  hist (+) 0 6 (map i64.i32 xs) (map (\_ -> 1) xs)
