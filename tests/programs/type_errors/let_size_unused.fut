-- A size binder in a `let` that the pattern's annotations do not use.
-- ==
-- error: Size \[n\] unused in pattern: `n` is the size of nothing
def main (ys: []i32) =
  let [n] xs = ys
  in (n, xs)
