-- Loops that stay in the thread: a trip count that differs between
-- rows, and a while loop (its condition is the row's own). Each thread
-- runs its loop sequentially.
-- ==
-- input { [[1i32, 2i32], [3i32, 4i32]] [1i64, 3i64] }
-- output { [[2i32, 4i32], [24i32, 32i32]] [[16i32, 32i32], [12i32, 16i32]] }
-- structure gpu { /SegMap/DoLoop 2 DoLoop 2 }

def main [n][m] (xss: [n][m]i32) (ks: [n]i64) : ([n][m]i32, [n][m]i32) =
  ( map2 (\xs k -> loop ys = xs for _i < k do map (* 2) ys) xss ks
  , map (\xs -> loop ys = xs while ys[0] < 10 do map (* 2) ys) xss )
