-- Both the index and the value map fuse into the scatter (a Screma in
-- Futhark's IR).
-- ==
-- input { [3i64, 1i64, 0i64] }
-- output { [300i64, 0i64, 100i64, 0i64] }
-- structure { Scatter 1 Screma 1 Map 0 }

def main (is: []i64): []i64 = scatter (replicate 4 0) (map (\i -> 3 - i) is) (map (* 100) is)
