-- Two writes of one row to one index: within a row the writes are in
-- order, so the later wins (Note [Accumulators as scatter and hist]).
-- Row i writes 1 then i+2 at index i.
-- ==
-- input { [0, 0, 0] }
-- output { [2, 3, 4] }

def main (xs: *[]i32) =
  intrinsics.scatter_stream xs
                            (\(acc: *intrinsics.acc ([]i32)) (i: i64) ->
                               let acc = intrinsics.acc_write acc i 1
                               in intrinsics.acc_write acc i (i32.i64 i + 2))
                            (iota 3)
