-- Using an array after it has been consumed by an in-place update.
-- ==
-- error: consumed
def main (xs: *[]i32): i32 =
  let ys = xs with [0] = 1
  in xs[0] + ys[0]
