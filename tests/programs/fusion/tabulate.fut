-- A map over `iota n` whose element indexes arrays of `n` rows maps over
-- those rows (Note [Indexing with iota]); then the maps fuse, and no iota
-- is left. Indexing a row of a matrix at the iota element takes that row
-- (`#[unsafe]`: a bounds check would still name the element in its
-- message).
-- ==
-- input { [1, 2, 3] [[1, 1, 1], [2, 4, 6]] 1i64 }
-- output { [3, 10, 21] }
-- structure { Screma 1 Iota 0 }

def main [n][m] (xs: [n]i32) (ys: [m][n]i32) (j: i64): [n]i32 =
  let zs = map (\i -> xs[i] + 1) (iota n)
  in map (\i -> (zs[i] - 1) * (#[unsafe] ys[j, i]) + xs[i] - xs[i] * 0) (iota n)
