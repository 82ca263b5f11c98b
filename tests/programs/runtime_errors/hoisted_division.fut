-- A division hoisted out of a loop (under `if n > 0`) still fails when the
-- loop runs and the divisor is zero.
-- ==
-- input { 2i64 0i64 } error: division by zero
-- input { 0i64 0i64 } output { 0i64 }

def main (n: i64) (d: i64): i64 =
  loop acc = 0 for i < n do acc * i + 10 / d
