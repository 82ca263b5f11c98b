-- Slices may be empty.
-- ==
-- input { [1, 2, 3] 2i64 }
-- output { empty([0]i32) [3] }
-- input { [1, 2, 3] 3i64 }
-- output { empty([0]i32) empty([0]i32) }
def main (xs: []i32) (i: i64): ([]i32, []i32) = (xs[i:i], xs[i:])
