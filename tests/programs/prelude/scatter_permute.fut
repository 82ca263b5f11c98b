-- scatter used to apply a permutation.
-- ==
-- input { [10, 20, 30, 40] [3i64, 0i64, 2i64, 1i64] }
-- output { [20, 40, 30, 10] }
def main [n] (xs: [n]i32) (perm: [n]i64): [n]i32 =
  scatter (copy xs) perm xs
