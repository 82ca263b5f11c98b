-- ==
-- input { [1i32, 2i32, 3i32] 3i64 }
-- input { [1i32, 2i32, 3i32] 1i64 }
def main (xs: []i32) (i: i64) =
  (i < length xs && xs[i] > 1, i >= length xs || xs[i] > 1, map (\j -> j < 2 && xs[j] > 0) (iota 4), if i < 3 then xs[i] else -1)
