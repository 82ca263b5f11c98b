-- Updating an alias of a non-unique parameter is an error.
-- ==
-- error: unique
def main (xs: []i32): []i32 =
  let ys = xs
  in ys with [0] = 1
