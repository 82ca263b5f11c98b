-- A name counts ops at any depth, a path from the top: one map at the top,
-- and in it a reduce (the inner map's `+ 0` is removed by the rewrites,
-- and the identity map it leaves fuses into the reduce, which fusion
-- gives back as a plain reduce). Kernel extraction (`structure gpu`)
-- makes one segmented reduction of the map of a reduce.
-- ==
-- input { [[1, 2], [3, 4]] } output { [3, 7] }
-- structure { Screma 2 /Screma 1 /Screma/Screma 1 /Map/Reduce 1 Redomap 0 }
-- structure gpu { SegRed 1 SegMap 0 Screma 0 }

def main (xss: [][]i32): []i32 = map (\xs -> reduce (+) 0 (map (+ 0) xs)) xss
