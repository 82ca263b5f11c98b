-- Three maps and a reduce: one redomap.
-- ==
-- input { [1, 2, 3] }
-- output { 33i32 }
-- structure { Screma 1 Redomap 1 Map 0 }

def main (xs: []i32): i32 = reduce (+) 0 (map (+ 1) (map (* 2) (map (+ 3) xs)))
