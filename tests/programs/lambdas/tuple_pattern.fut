-- Lambdas that destructure a tuple parameter.
-- ==
-- input { [10, 20, 30] [1, 2, 3] }
-- output { [9, 18, 27] }
def main (xs: []i32) (ys: []i32): []i32 =
  map (\(a, b) -> a - b) (zip xs ys)
