-- Map-loop interchange after distribution: the copy before the loop gets
-- a map of its own, the loop another, which is interchanged. The body
-- updates its merge array in place, and one merge value comes from
-- outside the map (a replicate of it starts the loop).
-- ==
-- input { [[1i32, 2i32, 3i32], [0i32, 0i32, 1i32]] 4i64 }
-- output { [[37i32, 11i32, 20i32], [7i32, 2i32, 4i32]]
--          [[6i32, 6i32], [6i32, 6i32]] }
-- structure gpu { /DoLoop/SegRed 1 DoLoop 1 }

def main [n][m] (xss: [n][m]i32) (k: i64) : ([n][m]i32, [n][2]i32) =
  unzip (map (\xs ->
                loop (ys, c) = (copy xs, [0, 0]) for i < k do
                  let s = reduce (+) 0 ys
                  in (ys with [i % m] = s, map (+ i32.i64 (i % 2 + 1)) c))
             xss)
