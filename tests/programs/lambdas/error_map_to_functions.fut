-- `map` cannot produce an array of functions: its result element type
-- parameter is unlifted.
-- ==
-- error: cannot be instantiated
def main (xs: []i32): []i32 =
  let adders = map (\x -> \y -> x + y) xs
  in map (\f -> f 1) adders
