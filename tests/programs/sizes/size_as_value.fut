-- A size parameter can be used as an i64 value.
-- ==
-- input { [5, 6, 7, 8] }
-- output { 4i64 3i64 }
def main [n] (xs: [n]i32): (i64, i64) = (n, n - 1)
