-- scatter writes values at indices; out-of-bounds writes are ignored.
-- ==
-- input { 5i64 [0i64, 2i64, 4i64, -1i64, 5i64] [1, 2, 3, 4, 5] }
-- output { [1, 0, 2, 0, 3] }
def main [n] (k: i64) (is: [n]i64) (vs: [n]i32): []i32 =
  scatter (replicate k 0) is vs
