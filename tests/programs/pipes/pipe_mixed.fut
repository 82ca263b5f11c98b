-- Pipes through filter, map and length.
-- ==
-- input { [5, -2, 8, 0, 3] }
-- output { 3i64 16 }
def main (xs: []i32): (i64, i32) =
  let pos = xs |> filter (>0)
  in (length pos, pos |> map (+0) |> i32.sum)
