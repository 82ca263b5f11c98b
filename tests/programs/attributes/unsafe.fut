-- The #[unsafe] attribute on an in-bounds index does not change the result.
-- ==
-- input { [1, 2, 3] 1i64 }
-- output { 2 }
def main (xs: []i32) (i: i64): i32 = #[unsafe] xs[i]
