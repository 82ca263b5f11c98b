-- A size bound in a function's body that is only the size of a
-- function's parameter in the result: no caller could know it.
-- ==
-- error: Cannot generalise

def partial (n: i64) =
  let m = n + 1
  in zip (iota m)

def main (n: i64) = partial n (replicate (n + 1) true)
