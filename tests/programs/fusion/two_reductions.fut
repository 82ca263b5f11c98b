-- Horizontal fusion of two reductions over the same array.
-- ==
-- input { [1, 2, 3, 4] }
-- output { 10i32 24i32 }
-- structure { Screma 1 }

def main (xs: []i32): (i32, i32) = (reduce (+) 0 xs, reduce (*) 1 xs)
