-- Index of the maximum element, keeping the first of equal maxima.
-- ==
-- input { [3, 9, -2, 9, 5] }
-- output { 9 1i64 }
-- input { [4] }
-- output { 4 0i64 }
def main (xs: []i32): (i32, i64) =
  let op ((v1, i1): (i32, i64)) ((v2, i2): (i32, i64)): (i32, i64) =
    if v1 > v2 then (v1, i1)
    else if v2 > v1 then (v2, i2)
    else if i1 < i2 then (v1, i1) else (v2, i2)
  in reduce op (i32.lowest, -1) (zip xs (indices xs))
