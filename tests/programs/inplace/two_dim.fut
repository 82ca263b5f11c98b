-- Updating an element of a matrix.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] }
-- output { [[1, 2, 3], [4, 5, 9]] }
def main (m: *[][]i32): [][]i32 = m with [1, 2] = 9
