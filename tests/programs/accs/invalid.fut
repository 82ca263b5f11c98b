-- An accumulator is written only, and each write consumes it.
-- ==
-- error: consumed

def f (acc: *intrinsics.acc ([]i32)) (i: i64) =
  let _ = intrinsics.acc_write acc i 1
  in intrinsics.acc_write acc (i + 1) 2

def main (xs: *[]i32) = intrinsics.scatter_stream xs f (iota 3)
