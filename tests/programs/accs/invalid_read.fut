-- An accumulator cannot be read: it is no array.
-- ==
-- error: expected

def f (acc: *intrinsics.acc ([]i32)) (i: i64) =
  intrinsics.acc_write acc i acc[0]

def main (xs: *[]i32) = intrinsics.scatter_stream xs f (iota 3)
