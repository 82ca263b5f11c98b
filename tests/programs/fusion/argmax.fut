-- Index of the maximum: a non-commutative operator on tuples over zip
-- (iota n) xs; the reduce stays a single reduce.
-- ==
-- input { [3, 9, 2, 9, 1] }
-- output { 1i64 9i32 }
-- structure { Screma 1 Reduce 1 }

def main [n] (xs: [n]i32): (i64, i32) =
  reduce (\(i, a) (j, b) -> if a > b || (a == b && i < j) then (i, a) else (j, b)) (-1, i32.lowest) (zip (iota n) xs)
