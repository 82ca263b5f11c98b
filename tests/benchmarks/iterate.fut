-- Map-loop interchange (rule G7) at scale: every row is iterated `k`
-- times by a map over its elements. Interchanged, each round is one
-- kernel over all the elements (`main`). In `per_thread` the trip count
-- is the row's own, so the loop stays in the thread: one thread per row,
-- each running its row's rounds sequentially (what `main` was before
-- the interchange).
-- ==
-- entry: main
-- input { [[1f32, 2f32], [3f32, 4f32]] 2i64 }
-- output { [[1.75f32, 2f32], [2.25f32, 2.5f32]] }
-- notest random input { [1000][100000]f32 10i64 }

entry main [n][m] (xss: [n][m]f32) (k: i64) : [n][m]f32 =
  map (\xs -> loop xs for _i < k do map (\x -> x * 0.5 + 1) xs) xss

-- ==
-- entry: per_thread
-- input { [[1f32, 2f32], [3f32, 4f32]] [2i64, 1i64] }
-- output { [[1.75f32, 2f32], [2.5f32, 3f32]] }

entry per_thread [n][m] (xss: [n][m]f32) (ks: [n]i64) : [n][m]f32 =
  map2 (\xs k -> loop xs for _i < k do map (\x -> x * 0.5 + 1) xs) xss ks
