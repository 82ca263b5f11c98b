-- Branches returning arrays of different sizes.
-- ==
-- input { true [1, 2] }
-- output { [1, 2] }
-- input { false [1, 2] }
-- output { [1, 2, 1, 2] }
def main (b: bool) (xs: []i32): []i32 =
  if b then xs else xs ++ xs
