-- Local functions and lambdas cannot name a size bound inside a tuple
-- parameter either.
-- ==
-- error: Parameter refers to size "k" which will not be accessible

def main (n: i64) =
  let f (k: i64, _: i64) (xs: [k]i64) = length xs
  in f (n, 0) (iota n)
