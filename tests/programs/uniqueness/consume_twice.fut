-- Consuming the same array twice.
-- ==
-- error: consumed
def f (xs: *[]i32): *[]i32 = xs with [0] = 1

def main (xs: *[]i32): ([]i32, []i32) =
  let a = f xs
  let b = f xs
  in (a, b)
