-- An entry point returning several values.
-- ==
-- entry: stats
-- input { [4, 1, 7] }
-- output { 1 7 12 }
entry stats (xs: []i32): (i32, i32, i32) =
  (i32.minimum xs, i32.maximum xs, i32.sum xs)
