-- A map over a scan's result needs whole prefixes: no parallel SOAC
-- fuses them. They fuse through a stream_seq over chunks (thesis 7.3.2,
-- Fig. 55): each chunk is scanned, the carry of the chunks before is
-- added, and the map runs on it (fused with the carry's map). The
-- interpreter runs streams in chunks of 3 rows, so the inputs of 10 and 7
-- rows carry between chunks.
-- ==
-- input { [1, 2, 3] }
-- output { [2i32, 6i32, 12i32] }
-- input { [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] }
-- output { [2i32, 6i32, 12i32, 20i32, 30i32, 42i32, 56i32, 72i32, 90i32, 110i32] }
-- input { [5, -1, 0, 2, -7, 3, 3] }
-- output { [10i32, 8i32, 8i32, 12i32, -2i32, 4i32, 10i32] }
-- input { empty([0]i32) }
-- output { empty([0]i32) }
-- structure { Stream 1 Screma 2 Scan 1 Map 1 }

def main (xs: []i32): []i32 = map (* 2) (scan (+) 0 xs)
