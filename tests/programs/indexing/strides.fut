-- Strided slices.
-- ==
-- input { [0, 1, 2, 3, 4, 5, 6] }
-- output { [0, 2, 4, 6] [1, 4] [1, 3] }
def main (xs: []i32): ([]i32, []i32, []i32) =
  (xs[::2], xs[1::3], xs[1:5:2])
