-- Arrays of booleans.
-- ==
-- input { [1, -1, 0] }
-- output { [true, false, false] [false, true, true] }
def main (xs: []i32): ([]bool, []bool) =
  let bs = map (>0) xs
  in (bs, map (\b -> !b) bs)
