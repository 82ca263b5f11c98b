-- A recursive function with a higher-order parameter may only be used
-- applied to its higher-order arguments.
-- ==
-- error: higher-order parameter

def repeat (n: i64) (f: i64 -> i64) (x: i64): i64 =
  if n == 0 then x else let g = repeat in g (n - 1) f (f x)

def main (n: i64) = repeat n (\x -> x + 1) 0
