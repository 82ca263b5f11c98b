-- Not fusible: the map reads the array the scatter writes in place.
-- ==
-- input { [1, 2, 3, 4] [0i64, 1i64] }
-- output { [20i32, 30i32, 3i32, 4i32] }
-- structure { Scatter 1 Map 1 }

def main (dest: *[]i32) (is: []i64): []i32 =
  let vs = map (\i -> dest[i + 1] * 10) is
  in scatter dest is vs
