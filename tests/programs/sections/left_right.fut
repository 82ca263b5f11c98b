-- Left and right operator sections.
-- ==
-- input { [1, 2, 3] }
-- output { [2, 3, 4] [0, -1, -2] [2, 4, 6] [9, 8, 7] }
def main (xs: []i32): ([]i32, []i32, []i32, []i32) =
  (map (+1) xs, map (1-) xs, map (*2) xs, map (10-) xs)
