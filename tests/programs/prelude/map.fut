-- map over one- and two-dimensional arrays.
-- ==
-- input { [[1, 2], [3, 4]] }
-- output { [[1, 4], [9, 16]] [3, 7] }
def main (m: [][]i32): ([][]i32, []i32) =
  (map (map (\x -> x * x)) m, map i32.sum m)
