-- Random inputs mixed with an ordinary input/output pair.
-- ==
-- input { [3, 1, 2] }
-- output { 3 }
-- random input { [50]i32 }
-- auto output
def main (xs: []i32): i32 = i32.maximum xs
