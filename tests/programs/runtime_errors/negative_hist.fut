-- `hist` into a negative number of bins is a run-time error.
-- ==
-- input { 2i64 [0i64, 1i64, 1i64] }
-- output { [1, 2] }
-- input { -2i64 [0i64] }
-- error: negative
def main (k: i64) (is: []i64): []i32 = hist (+) 0 k is (map (\_ -> 1) is)
