-- Indexing past the end of an array.
-- ==
-- input { [1, 2, 3] 2i64 }
-- output { 3 }
-- input { [1, 2, 3] 3i64 }
-- error: out of bounds
-- input { [1, 2, 3] -1i64 }
-- error: out of bounds
def main (xs: []i32) (i: i64): i32 = xs[i]
