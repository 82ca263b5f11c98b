-- A size coercion that succeeds at run time.
-- ==
-- input { [1, 2, 3] }
-- output { [2, 3, 4] }
def main [n] (xs: [n]i32): [n]i32 =
  let ys = filter (\_ -> true) xs
  in map (+1) (ys :> [n]i32)
