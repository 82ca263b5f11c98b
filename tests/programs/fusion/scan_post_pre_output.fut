-- A map reads a scan's result and another array the scan's producer
-- maps out: the producer, the scan and the map are one screma (Note
-- [Post-lambda fusion]): the pre-lambda computes both rows, scans one,
-- and the post-lambda reads the scanned row and the other.
-- ==
-- input { [1, 2, 3] }
-- output { [4, 18, 48] }
-- input { [5, -1, 0, 2] }
-- output { [60, 0, 8, 36] }
-- input { empty([0]i32) }
-- output { empty([0]i32) }
-- structure { Screma 1 }
-- structure gpu { SegScan 1 }

def main (xs: []i32) : []i32 =
  let (as, bs) = unzip (map (\x -> (x * 2, x + 1)) xs)
  let ss = scan (+) 0 as
  in map2 (*) ss bs
