-- rotate shifts elements to the left for positive amounts.
-- ==
-- input { [1, 2, 3, 4, 5] }
-- output { [2, 3, 4, 5, 1] [4, 5, 1, 2, 3] [1, 2, 3, 4, 5] }
def main (xs: []i32): ([]i32, []i32, []i32) =
  (rotate 1 xs, rotate (-2) xs, rotate 0 xs)
