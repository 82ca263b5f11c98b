-- Conditionals inside a mapped function.
-- ==
-- input { [1, 2, 3, 4, 5, 6] }
-- output { [4, 1, 10, 2, 16, 3] }
def main (xs: []i32): []i32 =
  map (\x -> if x % 2 == 0 then x / 2 else 3 * x + 1) xs
