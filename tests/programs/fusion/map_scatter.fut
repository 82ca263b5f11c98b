-- map-scatter fusion: indices and values computed in the scatter.
-- ==
-- input { [0i64, 2i64, 4i64] [1, 2, 3] }
-- output { [0i32, 10i32, 0i32, 20i32, 0i32, 30i32] }
-- structure { Scatter 1 Map 0 }

def main [n] (is: [n]i64) (vs: [n]i32): []i32 = scatter (replicate 6 0) (map (+ 1) is) (map (* 10) vs)
