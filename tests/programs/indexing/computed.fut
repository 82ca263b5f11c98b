-- Indices computed from other array elements.
-- ==
-- input { [2, 0, 1] [10, 20, 30] }
-- output { [30, 10, 20] }
def main (idx: []i32) (xs: []i32): []i32 =
  map (\i -> xs[i64.i32 i]) idx
