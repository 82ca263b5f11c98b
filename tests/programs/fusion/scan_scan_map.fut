-- Two scans and a map, each reading the one before: the second scan and
-- the map fuse into a screma (the map its post-lambda); a scan does not
-- fuse into the scan of a screma (it needs whole prefixes), as in
-- Futhark, which also keeps two scremas.
-- ==
-- input { [1, 2, 3, 4, 5, 6, 7] }
-- output { [3i32, 9i32, 21i32, 41i32, 71i32, 113i32, 169i32] }
-- input { empty([0]i32) }
-- output { empty([0]i32) }
-- structure { Stream 0 Scan 1 Screma 2 }

def main (xs: []i32): []i32 = map (\x -> 2 * x + 1) (scan (+) 0 (scan (+) 0 xs))
