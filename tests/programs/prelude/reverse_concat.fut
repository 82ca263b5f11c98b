-- reverse, '++' and concat.
-- ==
-- input { [1, 2, 3] [4, 5] }
-- output { [3, 2, 1] [1, 2, 3, 4, 5] [4, 5, 1, 2, 3] }
def main (xs: []i32) (ys: []i32): ([]i32, []i32, []i32) =
  (reverse xs, xs ++ ys, concat ys xs)
