-- Floor division and modulo on i64 with exact multiples.
-- ==
-- input { -9i64 3i64 }
-- output { -3i64 0i64 -3i64 0i64 }
-- input { -10i64 3i64 }
-- output { -4i64 2i64 -3i64 -1i64 }
def main (x: i64) (y: i64): (i64, i64, i64, i64) =
  (x / y, x % y, x // y, x %% y)
