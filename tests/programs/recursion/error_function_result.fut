-- A recursive function's result may not be a function.
-- ==
-- error: not first-order

def add (n: i64): i64 -> i64 =
  \x -> if n == 0 then x else add (n - 1) (x + 1)

def main (n: i64) = add n 0
