-- The result of copy is unique even when its argument is not.
-- ==
-- input { [5, 6] }
-- output { [5, 6] [5, 7] }
def main (xs: []i32): ([]i32, []i32) =
  let ys = copy xs
  let ys[1] = 7
  in (xs, ys)
