-- Using an array after passing it to a consuming function.
-- ==
-- error: consumed
def f (xs: *[]i32): *[]i32 = xs with [0] = 1

def main (xs: *[]i32): i32 =
  let ys = f xs
  in ys[0] + xs[1]
