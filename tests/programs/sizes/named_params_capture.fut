-- Sizes given for named parameters are substituted all at once: the
-- caller's `m` given for the callee's `n` is not captured by the callee's
-- own parameter `m` (`tabulate_2d m l` has type `[m][l]i64`, not
-- `[l][l]i64`).
-- ==
-- input { 2i64 3i64 }
-- output { [[0i64, 1i64, 2i64], [10i64, 11i64, 12i64]] [[0i64, 1i64, 2i64], [10i64, 11i64, 12i64]] }

def grid (n: i64) (m: i64) : [n][m]i64 = tabulate_2d n m (\i j -> i * 10 + j)

def main (m: i64) (l: i64) : ([m][l]i64, [m][l]i64) =
  (tabulate_2d m l (\i j -> i * 10 + j), grid m l)
