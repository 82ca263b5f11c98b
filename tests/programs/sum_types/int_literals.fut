-- Integer literal patterns, also negative ones, with a default case.
-- ==
-- input { [-1, 0, 1, 2, 7] }
-- output { [100, 10, 11, 12, 0] }
def main (xs: []i32): []i32 =
  map (\x -> match x
             case -1 -> 100
             case 0 -> 10
             case 1 -> 11
             case 2 -> 12
             case _ -> 0) xs
