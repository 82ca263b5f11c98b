-- The smallest integer divided by -1 wraps (no trap): the quotient is the
-- smallest integer again and the remainders are 0, for `/`, `//`, `%` and
-- `%%`, in every signed type, on the host and in a map.
-- ==
-- input { [-128i8, 7i8] [-1i8, -1i8] }
-- output { [-128i8, -7i8] [-128i8, -7i8] [0i8, 0i8] [0i8, 0i8] }
def main (xs: []i8) (ys: []i8) =
  (map2 (/) xs ys, map2 (//) xs ys, map2 (%) xs ys, map2 (%%) xs ys)

-- ==
-- entry: i32s
-- input { -2147483648 -1 }
-- output { -2147483648 -2147483648 0 0 }
-- input { -7 2 }
-- output { -4 -3 -1 1 }
entry i32s (x: i32) (y: i32) = (x / y, x // y, x %% y, x % y)

-- ==
-- entry: i64s
-- input { -9223372036854775808i64 -1i64 }
-- output { -9223372036854775808i64 -9223372036854775808i64 0i64 0i64 }
entry i64s (x: i64) (y: i64) = (x / y, x // y, x %% y, x % y)
