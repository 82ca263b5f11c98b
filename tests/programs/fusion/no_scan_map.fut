-- Not fusible: a map over a scan's result needs the whole scan first
-- (fusion through stream_seq is not done), so the two stay.
-- ==
-- input { [1, 2, 3] }
-- output { [2i32, 6i32, 12i32] }
-- structure { Screma 2 Scan 1 Map 1 }

def main (xs: []i32): []i32 = map (* 2) (scan (+) 0 xs)
