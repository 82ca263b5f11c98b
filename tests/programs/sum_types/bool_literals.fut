-- `true` and `false` cover a bool: no default case is needed.
-- ==
-- input { [true, false, true] [false, false, true] }
-- output { [1, 0, 3] }
def main (xs: []bool) (ys: []bool): []i32 =
  map2 (\x y -> match (x, y)
                case (true, false) -> 1
                case (false, _) -> 0
                case (true, true) -> 3) xs ys
