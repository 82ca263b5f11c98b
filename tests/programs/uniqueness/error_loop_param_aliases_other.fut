-- A value returned for a loop parameter may not alias another consumed
-- (unique) loop parameter (error index `loop-parameter-aliases-other`).
-- ==
-- error: Return value for loop parameter "ys" aliases other consumed loop parameter "xs"

def main (n: i64) =
  loop (xs: *[]i32, ys: *[]i32) = (replicate n 0, replicate n 0)
  for i < 10 do
    (xs, xs)
