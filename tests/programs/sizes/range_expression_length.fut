-- `0..<(n+1)` has the size `n+1`, as a size expression.
-- ==
-- input { 2i64 } output { [0i64, 1i64, 2i64] }

def main (n: i64) : [n + 1]i64 = 0..<(n + 1)
