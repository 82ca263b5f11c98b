-- Field projection sections on records.
-- ==
-- input { [1, 2, 3] }
-- output { [1, 2, 3] [2, 4, 6] }
def main (xs: []i32): ([]i32, []i32) =
  let rs = map (\x -> {a = x, b = x * 2}) xs
  in (map (.a) rs, map (.b) rs)
