-- A non-unique parameter can be copied and the copy updated.
-- ==
-- input { [1, 2, 3] }
-- output { [100, 2, 3] [1, 2, 3] }
def main (xs: []i32): ([]i32, []i32) =
  let ys = copy xs
  let ys[0] = 100
  in (ys, xs)
