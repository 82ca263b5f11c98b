-- take and drop.
-- ==
-- input { 2i64 [1, 2, 3, 4, 5] }
-- output { [1, 2] [3, 4, 5] }
-- input { 0i64 [1, 2] }
-- output { empty([0]i32) [1, 2] }
-- input { 2i64 [1, 2] }
-- output { [1, 2] empty([0]i32) }
def main (n: i64) (xs: []i32): ([]i32, []i32) = (take n xs, drop n xs)
