-- Field projection sections on tuples.
-- ==
-- input { [1, 2, 3] [4, 5, 6] }
-- output { [1, 2, 3] [4, 5, 6] }
def main (xs: []i32) (ys: []i32): ([]i32, []i32) =
  let ps = zip xs ys
  in (map (.0) ps, map (.1) ps)
