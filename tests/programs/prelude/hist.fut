-- hist counts values per bin; out-of-range indices are ignored.
-- ==
-- input { [0i64, 1i64, 1i64, 3i64, 5i64, -1i64] }
-- output { [1, 2, 0, 1] }
def main (is: []i64): []i32 =
  hist (+) 0 4 is (map (\_ -> 1) is)
