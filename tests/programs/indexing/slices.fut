-- Slices with explicit and omitted bounds.
-- ==
-- input { [0, 1, 2, 3, 4, 5] }
-- output { [1, 2, 3] [0, 1] [2, 3, 4, 5] [0, 1, 2, 3, 4, 5] }
def main (xs: []i32): ([]i32, []i32, []i32, []i32) =
  (xs[1:4], xs[:2], xs[2:], xs[:])
