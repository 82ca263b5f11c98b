-- A size binder reads the size from the value's shape: a size used only
-- in a function type cannot be bound.
-- ==
-- error: Cannot bind \[n\]

def main (b: bool) =
  let [n] (f: [n]bool -> [n]bool) = \(xs: [10]bool) -> map (\x -> x && b) xs
  in n
