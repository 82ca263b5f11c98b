-- Consuming an array also consumes its aliases.
-- ==
-- error: consumed
def main (xs: *[]i32): i32 =
  let ys = xs
  let xs[0] = 1
  in ys[0] + xs[0]
