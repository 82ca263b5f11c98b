-- Indexing a matrix out of bounds in the inner dimension.
-- ==
-- input { [[1, 2], [3, 4]] 1i64 1i64 }
-- output { 4 }
-- input { [[1, 2], [3, 4]] 1i64 2i64 }
-- error: out of bounds
def main (m: [][]i32) (i: i64) (j: i64): i32 = m[i, j]
