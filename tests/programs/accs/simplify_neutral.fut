-- A hist_stream whose writes all write its neutral element changes
-- nothing: soac-simplify removes the writes, then the stream (Note
-- [Simplifying accumulators]).
-- ==
-- input { [1, 2, 3] }
-- output { [1, 2, 3] }
-- structure { WithAcc 0 }

def main (xs: *[]i32) =
  intrinsics.hist_stream xs (*) 1 (\(acc: *intrinsics.acc ([]i32)) (i: i64) -> intrinsics.acc_write acc i 1) (iota 3)
