-- zip of arrays of two different size parameters is a type error.
-- ==
-- error: expected
def main [n][m] (xs: [n]i32) (ys: [m]i32): i32 =
  let (a, b) = unzip (zip xs ys)
  in i32.sum a + i32.sum b
