-- Composed functions passed to map.
-- ==
-- input { [1, 2, 3] }
-- output { [3, 5, 7] [4, 6, 8] }
def main (xs: []i32): ([]i32, []i32) =
  (map ((*2) >-> (+1)) xs, map ((*2) <-< (+1)) xs)
