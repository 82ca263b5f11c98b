-- A perfect map nest is one segmap over both dimensions.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] }
-- output { [[3, 5, 7], [9, 11, 13]] }
-- structure gpu { SegMap 1 /SegMap 1 Map 0 }

def main (xss: [][]i32): [][]i32 = map (\xs -> map (\x -> 2 * x + 1) xs) xss
