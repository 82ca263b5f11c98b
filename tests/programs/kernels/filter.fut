-- A filter becomes kernels: a segscan of the predicate's flags (each kept
-- row's place, and the count), then a segmap writing the kept rows of
-- both arrays to their places.
-- ==
-- input { [5, -1, 3, 0, -7, 8] [1f32, 2f32, 3f32, 4f32, 5f32, 6f32] }
-- output { [5, 3, 8] [1f32, 3f32, 6f32] }
-- input { empty([0]i32) empty([0]f32) }
-- output { empty([0]i32) empty([0]f32) }
-- structure gpu { SegScan 1 SegMap 1 Filter 0 }

def main [n] (xs: [n]i32) (ys: [n]f32): ([]i32, []f32) =
  unzip (filter (\(x, _) -> x > 0) (zip xs ys))
