-- Results of filter have a size not known in advance.
-- ==
-- input { [3, -1, 4, -1, 5] }
-- output { 3i64 [3, 4, 5] }
def main (xs: []i32): (i64, []i32) =
  let ys = filter (>0) xs
  in (length ys, ys)
