-- Fusion makes one stream of the scan and the map (thesis Fig. 55);
-- before kernel extraction the stream takes the whole input as one chunk,
-- giving back a parallel scan and map: a segscan and a segmap.
-- ==
-- input { [1, 2, 3, 4, 5, 6, 7] }
-- output { [3, 5, 8, 12, 17, 23, 30] }
-- structure { Stream 1 }
-- structure gpu { SegScan 1 SegMap 1 Stream 0 }

def main (xs: []i32): []i32 = map (+ 2) (scan (+) 0 xs)
