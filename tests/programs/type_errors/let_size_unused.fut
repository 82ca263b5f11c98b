-- A size binder in a `let` that the pattern's annotations do not use.
-- ==
-- error: size `n` is the size of nothing
def main (ys: []i32) =
  let [n] xs = ys
  in (n, xs)
