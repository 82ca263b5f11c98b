-- Two independent maps over one array: one map.
-- ==
-- input { [1, 2, 3] }
-- output { [2i32, 3i32, 4i32] [2i32, 4i32, 6i32] }
-- structure { Screma 1 Map 1 }

def main (xs: []i32): ([]i32, []i32) = (map (+ 1) xs, map (* 2) xs)
