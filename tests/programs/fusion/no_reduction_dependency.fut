-- Not fusible: the map uses the reduction's result (a data dependency
-- through a reduction).
-- ==
-- input { [1, 2, 3] }
-- output { [7i32, 8i32, 9i32] }
-- structure { Screma 2 Reduce 1 Map 1 }

def main (xs: []i32): []i32 = let s = reduce (+) 0 xs in map (+ s) xs
