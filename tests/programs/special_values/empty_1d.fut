-- Empty one-dimensional results.
-- ==
-- input { [1, 2, 3] }
-- output { empty([0]i32) empty([0]f32) empty([0]bool) }
def main (xs: []i32): ([]i32, []f32, []bool) =
  let ys = filter (>10) xs
  in (ys, map f32.i32 ys, map (>0) ys)
