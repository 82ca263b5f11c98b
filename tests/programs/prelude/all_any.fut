-- all and any.
-- ==
-- input { [2, 4, 6] }
-- output { true false }
-- input { [2, 3, 6] }
-- output { false true }
-- input { empty([0]i32) }
-- output { true false }
def main (xs: []i32): (bool, bool) =
  (all (\x -> x % 2 == 0) xs, any (\x -> x % 2 == 1) xs)
