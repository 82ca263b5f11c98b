-- A lambda with a record pattern parameter.
-- ==
-- input { [1, 2] [10, 20] }
-- output { [11, 22] }
def main (xs: []i32) (ys: []i32): []i32 =
  let rs = map2 (\a b -> {x = a, y = b}) xs ys
  in map (\{x, y} -> x + y) rs
