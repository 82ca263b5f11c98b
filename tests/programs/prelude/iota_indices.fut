-- iota and indices.
-- ==
-- input { 4i64 [7, 8, 9] }
-- output { [0i64, 1i64, 2i64, 3i64] [0i64, 1i64, 2i64] }
-- input { 0i64 empty([0]i32) }
-- output { empty([0]i64) empty([0]i64) }
def main (n: i64) (xs: []i32): ([]i64, []i64) = (iota n, indices xs)
