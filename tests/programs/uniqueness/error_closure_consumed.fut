-- A lambda aliases its free variables: after one of them is consumed,
-- the lambda may not be used.
-- ==
-- error: Using "f", which aliases "xs", but "xs" was consumed
def main (y: i32) (xs: *[]i32) =
  let f = \x -> x + xs[0]
  let xs[1] = 2
  in f y
