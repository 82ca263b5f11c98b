-- Map-loop interchange twice: after the first, the inner map's lambda is
-- a loop with parallelism as well. Two merge parameters, yielded in
-- another order than the loop's (`c * 3 + 2`: a plain sum would have a
-- closed form, and the loop would go).
-- ==
-- input { [[[1f32, 2f32]], [[3f32, 4f32]]] 2i64 3i64 }
-- output { [[[64f32, 128f32]], [[192f32, 256f32]]] [[26i64], [26i64]] }
-- structure gpu { /DoLoop/DoLoop/SegMap 1 /SegMap/DoLoop 1 DoLoop 3 }

def main [a][b][c] (xsss: [a][b][c]f32) (k: i64) (l: i64) : ([a][b][c]f32, [a][b]i64) =
  let r = map (\xss -> loop yss = xss for _i < k do
                         map (\xs -> loop ys = xs for _j < l do map (* 2) ys) yss)
              xsss
  let cs = map (\xss -> map (\xs -> (loop (ys, c) = (xs, 0) for _j < l do (map (+ 1) ys, c * 3 + 2)).1) xss) xsss
  in (r, cs)
