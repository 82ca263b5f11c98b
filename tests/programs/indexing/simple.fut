-- Indexing a one-dimensional array.
-- ==
-- input { [10, 20, 30] 0i64 }
-- output { 10 }
-- input { [10, 20, 30] 2i64 }
-- output { 30 }
def main (xs: []i32) (i: i64): i32 = xs[i]
