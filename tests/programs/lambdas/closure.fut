-- Lambdas capture variables from the enclosing scope.
-- ==
-- input { [1, 2, 3] 3 }
-- output { [4, 7, 10] }
def main (xs: []i32) (k: i32): []i32 =
  let off = 1
  in map (\x -> x * k + off) xs
