-- Not fusible: two maps over arrays of different sizes.
-- ==
-- input { [1, 2, 3] [4, 5] }
-- output { [2i32, 3i32, 4i32] [8i32, 10i32] }
-- structure { Screma 2 Map 2 }

def main (xs: []i32) (ys: []i32): ([]i32, []i32) = (map (+ 1) xs, map (* 2) ys)
