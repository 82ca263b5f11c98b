-- A scatter_stream in each thread of a map (the lowering runs it inside
-- the thread), and one inside the function of a hist_stream (an inner
-- accumulator: its writes are the inner stream's). Row i of `inner`:
-- zeros of length 4 with i written at i and at 3-i (row 0 writes 0s).
-- `outer`: for row i < 3, the inner scatter makes [i, i] (from [0, 0]),
-- and hist adds its sum 2*i to bucket 0: 0 + 2 + 4 = 6.
-- ==
-- entry: inner
-- input { 3i64 }
-- output { [[0, 0, 0, 0], [0, 1, 1, 0], [0, 2, 2, 0]] }
-- ==
-- entry: outer
-- input { [1, 1] }
-- output { [7, 1] }

entry inner (n: i64) =
  tabulate n (\i ->
    let f (acc: *intrinsics.acc ([4]i32)) (j: i64) = intrinsics.acc_write acc j (i32.i64 i)
    in intrinsics.scatter_stream (replicate 4 0) f [i, 3 - i] |> copy)

entry outer (xs: *[]i32) =
  let f (acc: *intrinsics.acc ([]i32)) (i: i64) =
    let row = intrinsics.scatter_stream (replicate 2 0i32)
                                        (\(a: *intrinsics.acc ([2]i32)) (j: i64) -> intrinsics.acc_write a j (i32.i64 i))
                                        (iota 2)
    in intrinsics.acc_write acc 0 (i32.sum row)
  in intrinsics.hist_stream xs (+) 0 f (iota 3)
