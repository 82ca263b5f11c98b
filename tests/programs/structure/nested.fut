-- A name counts ops at any depth, a path from the top: one map at the top,
-- and in it a map (whose `+ 0` the rewrites remove; fusion into a redomap
-- is not there yet) and a reduce. Kernel extraction (`structure gpu`) is
-- not there yet either.
-- ==
-- input { [[1, 2], [3, 4]] } output { [3, 7] }
-- structure { Screma 3 /Screma 1 /Screma/Screma 2 /Map/Reduce 1 }
-- structure gpu { SegRed 1 }

def main (xss: [][]i32): []i32 = map (\xs -> reduce (+) 0 (map (+ 0) xs)) xss
