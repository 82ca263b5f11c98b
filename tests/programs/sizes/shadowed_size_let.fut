-- A `let`, a lambda parameter or a loop counter that shadows a size name
-- binds another name: the arrays of size `n` keep it, and an annotation
-- under the shadowing binding names the new `n` (Note [Shadowed size
-- names]).
-- ==
-- input { [1, 2, 3] }
-- output { [2, 3, 4] [7i64, 7i64] 5i64 5i64 3i64 [4, 5, 6] }

def main [n] (xs: [n]i32) : ([n]i32, [2]i64, i64, i64, i64, [n]i32) =
  let k = n
  let n = 5i64
  let ys = map (+ 1) xs
  let zs = replicate 2 (n + 2)
  let r = {n, k}
  let ws = loop ws = ys for n < 2 do map (+ 1) ws
  let m = (\n -> n + length xs) 2
  in (ys, zs :> [2]i64, m, r.n, r.k, ws)
