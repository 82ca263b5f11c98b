-- Horizontal fusion of two reduces over different arrays of one size is a
-- single reduce again.
-- ==
-- input { [1, 2, 3] [4, 5, 6] }
-- output { 6i32 120i32 }
-- structure { Screma 1 Reduce 1 }

def main [n] (xs: [n]i32) (ys: [n]i32): (i32, i32) = (reduce (+) 0 xs, reduce (*) 1 ys)
