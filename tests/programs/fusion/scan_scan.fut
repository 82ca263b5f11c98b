-- Two scans side by side: one scanomap.
-- ==
-- input { [1, 2, 3] }
-- output { [2i32, 5i32, 9i32] [1i32, 2i32, 6i32] }
-- structure { Screma 1 Scanomap 1 }

def main (xs: []i32): ([]i32, []i32) = (scan (+) 0 (map (+ 1) xs), scan (*) 1 xs)
