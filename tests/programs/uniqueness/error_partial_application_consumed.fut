-- A partial application aliases its arguments.
-- ==
-- error: "xs" was consumed
def first (xs: []i32) (_: i32) = xs[0]

def main (y: i32) (xs: *[]i32) =
  let f = first xs
  let xs[1] = 2
  in f y
