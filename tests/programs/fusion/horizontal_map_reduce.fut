-- A map and a reduce side by side: one redomap.
-- ==
-- input { [1, 2, 3] }
-- output { [2i32, 3i32, 4i32] 6i32 }
-- structure { Screma 1 Redomap 1 }

def main (xs: []i32): ([]i32, i32) = (map (+ 1) xs, reduce (+) 0 xs)
