-- The 'let xs[i] = v' form of in-place update.
-- ==
-- input { [1, 2, 3] }
-- output { [10, 2, 30] }
def main (xs: *[]i32): []i32 =
  let xs[0] = 10
  let xs[2] = 30
  in xs
