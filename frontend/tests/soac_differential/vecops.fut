-- ==
-- input { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] [0i64, 1i64, 0i64, 2i64] }
def main (m: [][]i32) (is: []i64) =
  (reduce (map2 (+)) [0, 0] m, scan (map2 (+)) [0, 0] m, reduce_by_index (replicate 3 [0i32, 0i32]) (map2 (+)) [0, 0] is (map (\i -> m[i]) is),
   hist (map2 i32.max) [i32.lowest, i32.lowest] 2 [0i64, 1i64, 0i64] m, scatter (copy m) [2, 0, 7] [[9, 9], [8, 8], [7, 7]],
   map (\r -> scan (+) 0 r) m, (reduce (\(a, b) (c, d) -> (map2 (+) a c, b + d)) ([0, 0], 0) (zip m [1, 2, 3])).0,
   filter (\r -> r[0] > 2) m, partition (\r -> r[1] % 4 == 0) m |> (.0), tabulate 2 (\i -> m[i]),
   map2 (\r i -> copy r with [0] = i32.i64 i) m [5, 6, 7], (unzip (partition (\(a, _) -> a > 2) (zip [1i32, 3, 5] [1i32, 2, 3])).0).0)
