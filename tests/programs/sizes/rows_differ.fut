-- The rows of an array literal must have the same size.
-- ==
-- error: expected
def main (n: i64) (m: i64): [][]i64 = [iota n, iota m]
