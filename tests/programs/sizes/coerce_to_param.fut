-- Coercing to the size of another array before combining them.
-- ==
-- input { [1, 2, 3] [10, 20, 30] }
-- output { [11, 22, 33] }
-- input { [1, 2, 3] [10, 20] }
-- error: size
def main [n][m] (xs: [n]i32) (ys: [m]i32): [n]i32 =
  map2 (+) xs (ys :> [n]i32)
