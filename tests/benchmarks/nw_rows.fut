-- Rows of a matrix, each computed from the row before and itself in a
-- loop and written back with an in-place update (the Needleman-Wunsch
-- and LUD pattern, seed 003's second case): mem-short-circuit makes the
-- map write the new row in place, so no row is allocated or copied per
-- iteration (Note [Short-circuiting]).
-- ==
-- input { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] }
-- output { [[1i32, 2i32], [2i32, 3i32], [3i32, 4i32]] }
-- notest random input { [2048][65536]i32 }
def main [n][m] (xss: *[n][m]i32): [n][m]i32 =
  loop xss for i in 1..<n do
    xss with [i] = map2 (\a b -> i32.max (a + 1) (b / 2)) xss[i - 1] xss[i]
