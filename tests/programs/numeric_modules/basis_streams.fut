-- reduce_by_index_2d/3d, partition2 and the stream functions.
-- ==
-- input { [1, 2, 3, 4, 5, 6, 7] }
-- output { [[1, 0], [9, 5]] [[[0, 4], [0, 0]], [[3, 0], [0, 0]]] [3, 6] [2, 4] [1, 5, 7] [2, 3, 4, 5, 6, 7, 8] 28 28 [2, 4, 6, 8, 10, 12, 14] }

def main (xs: []i32) =
  let h2 = reduce_by_index_2d (replicate 2 (replicate 2 0)) (+) 0
                              [(0, 0), (1, 0), (1, 1), (1, 0), (2, 0), (0, -1)] [1, 4, 5, 5, 100, 100]
  let h3 = reduce_by_index_3d (replicate 2 (replicate 2 (replicate 2 0))) (+) 0
                              [(0, 0, 1), (1, 0, 0), (0, 0, 1), (0, 2, 0)] [1, 3, 3, 100]
  let (a, b, c) = partition2 (\x -> x % 3 == 0) (\x -> x % 2 == 0) xs
  in (h2, h3, a, b, c,
      map_stream (\k (ys: [k]i32) -> map (+1) ys) xs,
      reduce_stream (+) (\k (ys: [k]i32) -> i32.sum ys) xs,
      reduce_stream_per (+) (\k (ys: [k]i32) -> i32.sum ys) xs,
      map_stream_per (\k (ys: [k]i32) -> map (*2) ys) xs)
