-- A function cannot be returned from the cases of a `match` either.
-- ==
-- error: returned from the branches
def main (k: i32) (x: i32): i32 =
  let f = match k
          case 0 -> (+ 1)
          case 1 -> (* 2)
          case _ -> (\y -> y)
  in f x
