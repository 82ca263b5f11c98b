-- `iota n` and `iota 5` have different sizes.
-- ==
-- error: expected
def main (n: i64): i64 = i64.sum (map2 (+) (iota n) (iota 5))
