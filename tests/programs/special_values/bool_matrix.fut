-- A two-dimensional array of booleans.
-- ==
-- input { [[1, -1], [0, 2]] }
-- output { [[true, false], [false, true]] }
def main (m: [][]i32): [][]bool = map (map (>0)) m
