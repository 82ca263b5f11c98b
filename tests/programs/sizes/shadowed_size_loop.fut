-- A loop parameter that shadows a size parameter is another name: the
-- loop body's arrays keep the outer size `c`, not the loop's counter
-- `c` (Note [Shadowed size names]).
-- ==
-- input { [[1f32, 2f32], [3f32, 4f32]] 3i64 }
-- output { [[4f32, 5f32], [6f32, 7f32]] [26i64, 26i64] }

def main [b][c] (xss: [b][c]f32) (l: i64) : ([b][c]f32, [b]i64) =
  let r = map (\xs -> (loop (ys, c) = (xs, 0) for _j < l do (map (+ 1) ys, c * 3 + 2)).0) xss
  let cs = map (\xs -> (loop (ys, c) = (xs, 0) for _j < l do (map (+ 1) ys, c * 3 + 2)).1) xss
  in (r, cs)
