-- A hist_stream that writes something else than its neutral element
-- stays (the counterpart of simplify_neutral.fut): only row 1 adds 3 to
-- index 1 (the others add 0), so xs[1] = 2 + 3 = 5.
-- ==
-- input { [1, 2, 3] }
-- output { [1, 5, 3] }
-- structure { WithAcc 1 }

def main (xs: *[]i32) =
  intrinsics.hist_stream xs (+) 0
                         (\(acc: *intrinsics.acc ([]i32)) (i: i64) -> intrinsics.acc_write acc 1 (if i == 1 then 3 else 0))
                         (iota 3)
