-- reduce_by_index combines values into an existing array.
-- ==
-- input { [0i64, 2i64, 0i64, 7i64] [5, 6, 7, 8] }
-- output { [13, 1, 7] }
def main [n] (is: [n]i64) (vs: [n]i32): []i32 =
  reduce_by_index (replicate 3 1) (+) 0 is vs
