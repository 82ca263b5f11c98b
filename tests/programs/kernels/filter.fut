-- A filter of scalar rows becomes one segop.filter (on the GPU a scan of
-- the predicate's flags whose last pass writes the kept rows of both
-- arrays to their places), not a segscan and a scattering segmap.
-- ==
-- input { [5, -1, 3, 0, -7, 8] [1f32, 2f32, 3f32, 4f32, 5f32, 6f32] }
-- output { [5, 3, 8] [1f32, 3f32, 6f32] }
-- input { empty([0]i32) empty([0]f32) }
-- output { empty([0]i32) empty([0]f32) }
-- structure gpu { segop.filter 1 soac.filter 0 SegScan 0 SegMap 0 }

def main [n] (xs: [n]i32) (ys: [n]f32): ([]i32, []f32) =
  unzip (filter (\(x, _) -> x > 0) (zip xs ys))
