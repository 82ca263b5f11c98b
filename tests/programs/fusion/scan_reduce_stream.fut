-- A sum over a map over prefix sums: the map fuses into the reduction,
-- the reduction through a stream with the scan. The stream carries the
-- scan's carry and the partial sum.
-- ==
-- input { [1, 2, 3, 4, 5, 6, 7, 8] }
-- output { 240i32 }
-- structure { Stream 1 Screma 2 Scan 1 Redomap 1 Map 0 }

def main (xs: []i32): i32 = reduce (+) 0 (map (* 2) (scan (+) 0 xs))
