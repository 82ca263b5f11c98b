-- A size bound in a function's body may be the size of a function's
-- parameter in the result where an array of the result has it too.
-- ==
-- input { 2i64 } output { [0i64, 1i64, 2i64] [true, true, true] }

def partial (n: i64) =
  let m = n + 1
  in (iota m, \(xs: [m]bool) -> xs)

def main (n: i64) =
  let (is, f) = partial n
  in (is, f (map (const true) is))
