-- i64 overflow wraps.
-- ==
-- input { 9223372036854775807i64 4294967296i64 }
-- output { -9223372036854775808i64 0i64 }
def main (x: i64) (y: i64): (i64, i64) = (x + 1, y * y)
