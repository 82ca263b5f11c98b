-- The stream that fusing a reduction with the scan it reads makes, inside
-- a map: it runs as one chunk (`soac-unstream{nested=true}` before kernel
-- extraction), its scan and reduction part of the map's nest.
-- Rows of different sums, an empty inner dimension, and the scan's
-- results also returned.
-- ==
-- input { [[1, 2, 3], [4, 5, 6], [-1, 0, 1]] }
-- output { [20i32, 56i32, -4i32] [[1, 3, 6], [4, 9, 15], [-1, -1, 0]] }
-- input { empty([2][0]i32) }
-- output { [0i32, 0i32] empty([2][0]i32) }
-- input { empty([0][4]i32) }
-- output { empty([0]i32) empty([0][4]i32) }
-- structure gpu { Stream 0 }

def main (xss: [][]i32) : ([]i32, [][]i32) =
  unzip (map (\xs -> let s = scan (+) 0 xs
                     in (reduce (+) 0 (map (* 2) s), s))
             xss)
