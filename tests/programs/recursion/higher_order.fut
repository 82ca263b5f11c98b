-- A recursive function with a higher-order parameter passes it unchanged.
-- ==
-- input { 3i64 1i64 } output { 8i64 }

def repeat (n: i64) (f: i64 -> i64) (x: i64): i64 =
  if n == 0 then x else repeat (n - 1) f (f x)

def main (n: i64) (x: i64) = repeat n (\y -> y * 2) x
