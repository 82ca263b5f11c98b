-- The body of a loop whose initial value is consumed may not use it.
-- ==
-- error: Loop body uses "get" \(or an alias\), but this is consumed by the initial loop argument
def main [n] (xs: *[n]i32) =
  let get i = xs[i]
  in loop ys = xs for i < n do ys with [i] = get i
