-- A scatter becomes a segmap writing in place into its destination (the
-- map computing the values fuses into it first); out-of-bounds indices
-- are ignored.
-- ==
-- input { [0, 0, 0, 0, 0] [3i64, 0i64, 7i64, -1i64] [1, 2, 3, 4] }
-- output { [20, 0, 0, 10, 0] }
-- structure gpu { SegMap 1 Scatter 0 Map 0 }

def main [n] (dest: *[]i32) (is: [n]i64) (vs: [n]i32): []i32 =
  scatter dest is (map (* 10) vs)
