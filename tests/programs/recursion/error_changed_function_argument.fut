-- A recursive call must pass a higher-order parameter unchanged.
-- ==
-- error: must be passed unchanged

def go (g: i64 -> i64) (n: i64): i64 =
  if n == 0 then g 0 else go (\x -> g x + 1) (n - 1)

def main (n: i64) = go (\x -> x) n
