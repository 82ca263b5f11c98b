-- #[unsafe] on a whole expression containing several indexing operations.
-- ==
-- input { [10, 20, 30] [2i64, 0i64] }
-- output { [30, 10] }
def main (xs: []i32) (idx: []i64): []i32 = #[unsafe] map (\i -> xs[i]) idx
