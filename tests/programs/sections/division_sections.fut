-- Sections with non-commutative division operators.
-- ==
-- input { [1, 2, 4, 5] }
-- output { [0, 1, 2, 2] [100, 50, 25, 20] }
def main (xs: []i32): ([]i32, []i32) =
  (map (/2) xs, map (100/) xs)
