-- Branches returning arrays.
-- ==
-- input { true [1, 2, 3] }
-- output { [1, 2, 3] }
-- input { false [1, 2, 3] }
-- output { [2, 4, 6] }
def main (b: bool) (xs: []i32): []i32 =
  if b then xs else map (*2) xs
