-- Row sums of a random matrix.
-- ==
-- random input { [10][20]i64 }
-- auto output
def main [n][m] (a: [n][m]i64): [n]i64 = map i64.sum a
