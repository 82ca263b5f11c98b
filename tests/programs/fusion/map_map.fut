-- Vertical map-map fusion: one map.
-- ==
-- input { [1, 2, 3] }
-- output { [3i32, 5i32, 7i32] }
-- structure { Screma 1 Map 1 }

def main (xs: []i32): []i32 = map (+ 1) (map (* 2) xs)
