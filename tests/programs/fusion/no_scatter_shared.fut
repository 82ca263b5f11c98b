-- Not fusible: the map's result is also returned, and a scatter cannot map
-- it out; computing it twice is not allowed.
-- ==
-- input { [0i64, 2i64] }
-- output { [0i32, 7i32, 0i32, 7i32] [1i64, 3i64] }
-- structure { Scatter 1 Map 1 }

def main (is: []i64): ([]i32, []i64) =
  let js = map (+ 1) is
  in (scatter (replicate 4 0) js (map (\_ -> 7) is), js)
