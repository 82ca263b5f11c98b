-- transpose of a non-square matrix.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] }
-- output { [[1, 4], [2, 5], [3, 6]] }
-- input { empty([0][2]i32) }
-- output { empty([2][0]i32) }
def main (a: [][]i32): [][]i32 = transpose a
