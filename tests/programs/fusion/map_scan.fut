-- map-scan fusion into a scanomap.
-- ==
-- input { [1, 2, 3, 4] }
-- output { [2i32, 6i32, 12i32, 20i32] }
-- structure { Screma 1 Scanomap 1 Map 0 }

def main (xs: []i32): []i32 = scan (+) 0 (map (* 2) xs)
