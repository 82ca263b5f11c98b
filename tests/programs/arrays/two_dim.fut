-- Two-dimensional array literals.
-- ==
-- input { 1 }
-- output { [[1, 2, 3], [4, 5, 6]] }
def main (x: i32): [][]i32 = [[x, x + 1, x + 2], [x + 3, x + 4, x + 5]]
