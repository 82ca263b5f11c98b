-- Fusion makes one screma of the scan and the map (its post-lambda);
-- kernel extraction splits it into a parallel scan and map again: a
-- segscan and a segmap.
-- ==
-- input { [1, 2, 3, 4, 5, 6, 7] }
-- output { [3, 5, 8, 12, 17, 23, 30] }
-- structure { Screma 1 Stream 0 }
-- structure gpu { SegScan 1 SegMap 1 Stream 0 }

def main (xs: []i32): []i32 = map (+ 2) (scan (+) 0 xs)
