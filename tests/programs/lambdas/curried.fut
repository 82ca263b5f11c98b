-- A lambda returning a lambda, partially applied.
-- ==
-- input { [1, 2, 3] }
-- output { [6, 7, 8] }
def main (xs: []i32): []i32 =
  let adder = \a -> \b -> a + b
  let add5 = adder 5
  in map add5 xs
