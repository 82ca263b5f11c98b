-- `iota n` and `replicate n x` both have size `n`.
-- ==
-- input { 3i64 }
-- output { [10i64, 11i64, 12i64] }
-- input { 0i64 }
-- output { empty([0]i64) }
def main (n: i64): [n]i64 = map2 (+) (iota n) (replicate n 10)
