-- Arrays of records built with map and consumed with map.
-- ==
-- input { [1, 2, 3] }
-- output { [2, 6, 12] }
def main (xs: []i32): []i32 =
  let rs = map (\x -> {v = x, w = x + 1}) xs
  in map (\r -> r.v * r.w) rs
