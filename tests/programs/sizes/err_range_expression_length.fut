-- `0..<(n+1)` has the size `n+1`, which is not `n`.
-- ==
-- error: Sizes "n" and "n \+ 1" do not match

def main (n: i64) : [n]i64 = 0..<(n + 1)
