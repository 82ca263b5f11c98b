-- The map reads the array the scatter writes in place: fused as they
-- are, the scatter's lambda would read what it overwrites. Fusion makes
-- the scatter write into a copy of the destination instead (so the fused
-- SOAC consumes no more than its parts did), and the map goes.
-- ==
-- input { [1, 2, 3, 4] [0i64, 1i64] }
-- output { [20i32, 30i32, 3i32, 4i32] }
-- input { [1, 2, 3, 4, 5, 6, 7] [6i64, 5i64, 0i64, 9i64] }
-- output { [20i32, 2i32, 3i32, 4i32, 5i32, 70i32, 0i32] }
-- structure { Scatter 1 Map 0 Copy 1 }

def main (dest: *[]i32) (is: []i64): []i32 =
  let vs = map (\i -> if i + 1 < length dest then dest[i + 1] * 10 else 0) is
  in scatter dest is vs
