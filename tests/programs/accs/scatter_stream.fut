-- `intrinsics.scatter_stream`: every row writes two values; writes out
-- of bounds (index 6 and 7 of a 6-element array, and -1) are ignored.
-- Row i writes i*10 at 2*i and -1 at 2*i+1, except that row 0 writes
-- at -1 instead of 1, so index 1 keeps its 7.
-- ==
-- input { [7, 7, 7, 7, 7, 7] 4i64 }
-- output { [0, 7, 10, -1, 20, -1] }

def f (acc: *intrinsics.acc ([]i32)) (i: i64) =
  let acc = intrinsics.acc_write acc (2 * i) (i32.i64 i * 10)
  in intrinsics.acc_write acc (if i == 0 then -1 else 2 * i + 1) (-1)

def main (xs: *[]i32) (n: i64) = intrinsics.scatter_stream xs f (iota n)
