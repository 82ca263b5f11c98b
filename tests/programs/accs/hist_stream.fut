-- `intrinsics.hist_stream` with `+`: row i adds i to bucket i % 3 and 1
-- to bucket 0, in a loop; index 5 is out of bounds (ignored).
-- Rows 0..5: bucket 0 gets 0+3 = 3 from `i`, 6 from the ones; bucket 1
-- gets 1+4 = 5; bucket 2 gets 2+5 = 7. Starting at [100, 200, 300]:
-- [109, 205, 307]. With max instead, starting at [0, 0, 0]: bucket 0 is
-- max(0, 3, 1) = 3, bucket 1 max(1, 4) = 4, bucket 2 max(2, 5) = 5.
-- ==
-- entry: sum
-- input { [100, 200, 300] 6i64 }
-- output { [109, 205, 307] }
-- ==
-- entry: maximum
-- input { [0, 0, 0] 6i64 }
-- output { [3, 4, 5] }

def f (acc: *intrinsics.acc ([]i32)) (i: i64) =
  let acc = loop acc for j in [i % 3, 5] do intrinsics.acc_write acc j (i32.i64 i)
  in intrinsics.acc_write acc 0 1

entry sum (xs: *[]i32) (n: i64) = intrinsics.hist_stream xs (+) 0 f (iota n)

entry maximum (xs: *[]i32) (n: i64) = intrinsics.hist_stream xs i32.max i32.lowest f (iota n)
