-- Scatters and histograms inside a map, and histograms of arrays, run
-- as loops writing in place (Note [Sequential writes]); out-of-bounds
-- indices and buckets are ignored.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] [[1, -1, 7], [-1, 0, 2]] [[10, 20, 30], [40, 50, 60]] }
-- output { [[1, 10, 3], [50, 5, 60]] }
def main (as: [][]i32) (is: [][]i32) (vs: [][]i32) =
  map3 (\a i v -> scatter (copy a) (map i64.i32 i) v) as is vs

-- ==
-- entry: nested_hist
-- input { [[0i64, 1i64, 1i64, 5i64], [2i64, 2i64, -1i64, 0i64]] }
-- output { [[1, 2, 0], [1, 0, 2]] }
entry nested_hist (bss: [][]i64) : [][3]i32 =
  map (\bs -> hist (+) 0 3 bs (map (const 1) bs)) bss

-- ==
-- entry: array_hist
-- input { [[1, 2, 3], [4, 5, 6]] [0i64, 0i64, 2i64, 1i64] }
-- output { [[1, 4, 7], [4, 6, 8]] }
entry array_hist [m] [n] [k] (xs: *[n][m]i32) (image: [k]i64) : *[n][m]i32 =
  reduce_by_index xs (map2 (+)) (replicate m 0) image
                  (replicate k (map i32.i64 (iota m)))

-- ==
-- entry: array_hist_max
-- input { [0i64, 1i64, 0i64, 9i64] [[1f32, 5f32], [2f32, 2f32], [3f32, 0f32], [7f32, 7f32]] }
-- output { [[3f32, 5f32], [2f32, 2f32]] }
entry array_hist_max [k] (image: [k]i64) (vss: [k][2]f32) : [2][2]f32 =
  reduce_by_index (replicate 2 (replicate 2 f32.lowest)) (map2 f32.max)
                  (replicate 2 f32.lowest) image vss
