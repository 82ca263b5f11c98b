-- A range other than `0..<n`, `0..1..<n`, `1..2...n` has a fresh size.
-- ==
-- error: unknown length of range

def main (n: i64) : [n]i64 = 1..2..<n + 1
