-- Two scans and a map, each reading the one before: the second scan and
-- the map fuse through a stream, then the first scan into that stream
-- (stream_seq fusion, thesis 7.3.2): one stream, whose chunk lambda
-- scans, scans with the carry added (a scanomap) and maps.
-- ==
-- input { [1, 2, 3, 4, 5, 6, 7] }
-- output { [3i32, 9i32, 21i32, 41i32, 71i32, 113i32, 169i32] }
-- input { empty([0]i32) }
-- output { empty([0]i32) }
-- structure { Stream 1 Scan 1 Scanomap 1 Map 1 }

def main (xs: []i32): []i32 = map (\x -> 2 * x + 1) (scan (+) 0 (scan (+) 0 xs))
