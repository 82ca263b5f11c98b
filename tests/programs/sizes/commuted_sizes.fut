-- Size expressions equal as polynomials agree: `n+m` and `m+n`.
-- ==
-- input { [1, 2] [3] } output { [4, 3, 5] }

def main [n] [m] (xs: [n]i32) (ys: [m]i32) =
  map2 (+) (xs ++ ys) (ys ++ xs)
