-- Nested replicate builds a matrix.
-- ==
-- input { 2i64 3i64 7 }
-- output { [[7, 7, 7], [7, 7, 7]] }
def main (n: i64) (m: i64) (x: i32): [][]i32 = replicate n (replicate m x)
