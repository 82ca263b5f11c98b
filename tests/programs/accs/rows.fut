-- Accumulators of rows: scatter_stream writes whole rows, hist_stream
-- combines rows with `map2 (+)`. Rows (i, x): scatter writes row [x, x]
-- at i; hist adds [x, 1] to row i % 2.
-- Inputs i = [0, 2, 1, 2], x = [5, 6, 7, 8]: scatter gives row 0 = [5,5],
-- row 1 = [7,7], row 2 = [6,6] or [8,8] (two writes: both allowed, so
-- index 2 is written once only here: i = [0, 2, 1, 3] with row 3 out of
-- bounds). hist: row 0 gets [5,1] + [6,1] + [8,1] = [19, 3], row 1
-- gets [7, 1].
-- ==
-- entry: scatter_rows
-- input { [[0, 0], [0, 0], [0, 0]] [0i64, 2i64, 1i64, 3i64] [5, 6, 7, 8] }
-- output { [[5, 5], [7, 7], [6, 6]] }
-- ==
-- entry: hist_rows
-- input { [[0, 0], [0, 0]] [0i64, 2i64, 1i64, 4i64] [5, 6, 7, 8] }
-- output { [[19, 3], [7, 1]] }

entry scatter_rows [k] [n] (xs: *[k][2]i32) (is: [n]i64) (vs: [n]i32) =
  intrinsics.scatter_stream xs
                            (\(acc: *intrinsics.acc ([k][2]i32)) (i, x) -> intrinsics.acc_write acc i [x, x])
                            (zip is vs)

entry hist_rows [k] [n] (xs: *[k][2]i32) (is: [n]i64) (vs: [n]i32) =
  intrinsics.hist_stream xs
                         (map2 (+))
                         [0, 0]
                         (\(acc: *intrinsics.acc ([k][2]i32)) (i, x) -> intrinsics.acc_write acc (i % 2) [x, 1])
                         (zip is vs)
