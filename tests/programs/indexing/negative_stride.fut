-- Slices with a negative stride run backwards.
-- ==
-- input { [0, 1, 2, 3, 4] }
-- output { [4, 3, 2, 1, 0] [3, 2, 1] [4, 2, 0] }
def main (xs: []i32): ([]i32, []i32, []i32) =
  (xs[::-1], xs[3:0:-1], xs[::-2])
