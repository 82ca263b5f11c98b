-- A map of a reduction over each row is one segmented reduction over
-- both dimensions (thesis rule G5); the sum of those is a second one.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] }
-- output { [6, 15] 21 }
-- input { empty([0][3]i32) }
-- output { empty([0]i32) 0 }
-- structure gpu { SegRed 2 SegMap 0 Screma 0 }

def main (xss: [][]i32): ([]i32, i32) =
  let sums = map (\xs -> reduce (+) 0 xs) xss
  in (sums, reduce (+) 0 sums)
