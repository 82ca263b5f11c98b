-- A map over a scan's result reads one row of the prefixes at a time:
-- it is the scan's post-lambda, one screma (Futhark's fusion; Note
-- [Post-lambda fusion]), not a stream over chunks (which a reduction of a
-- scan still takes: scan_reduce_stream.fut).
-- ==
-- input { [1, 2, 3] }
-- output { [2i32, 6i32, 12i32] }
-- input { [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] }
-- output { [2i32, 6i32, 12i32, 20i32, 30i32, 42i32, 56i32, 72i32, 90i32, 110i32] }
-- input { [5, -1, 0, 2, -7, 3, 3] }
-- output { [10i32, 8i32, 8i32, 12i32, -2i32, 4i32, 10i32] }
-- input { empty([0]i32) }
-- output { empty([0]i32) }
-- structure { Stream 0 Screma 1 }

def main (xs: []i32): []i32 = map (* 2) (scan (+) 0 xs)
