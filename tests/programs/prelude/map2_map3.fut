-- map2 and map3 over arrays of equal length.
-- ==
-- input { [1, 2, 3] [4, 5, 6] [7, 8, 9] }
-- output { [5, 7, 9] [11, 18, 27] }
def main [n] (xs: [n]i32) (ys: [n]i32) (zs: [n]i32): ([n]i32, [n]i32) =
  (map2 (+) xs ys, map3 (\a b c -> a * b + c) xs ys zs)
