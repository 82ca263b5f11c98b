-- A scatter_stream that writes nothing is its destination (Note
-- [Simplifying accumulators]).
-- ==
-- input { [1, 2, 3] }
-- output { [1, 2, 3] }
-- structure { WithAcc 0 }

def main (xs: *[]i32) =
  intrinsics.scatter_stream xs (\(acc: *intrinsics.acc ([]i32)) (_: i64) -> acc) (iota 3)
