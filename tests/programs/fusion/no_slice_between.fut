-- Not fusible: the consumer maps over a slice of the producer's result,
-- not the result itself.
-- ==
-- input { [1, 2, 3, 4] }
-- output { [5i32, 7i32] }
-- structure { Screma 2 Map 2 }

def main (xs: []i32): []i32 = let ys = map (* 2) xs in map (+ 1) ys[1:3]
