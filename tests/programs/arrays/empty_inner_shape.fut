-- An empty array built in polymorphic code (`tabulate_2d 0 0`) written
-- to an empty slice: the interpreter's empty array of unknown element
-- type stands for the empty array the slice expects.
-- ==
-- input { 2i64 } output { [[0f64, 0f64], [0f64, 1f64]] }
-- input { 1i64 } output { [[0f64]] }

entry main (k: i64) : [][]f64 =
  let mat = tabulate_2d k k (\i j -> f64.i64 (i * j))
  let mat[k:, k:] = tabulate_2d 0 0 (\_ _ -> 1f64)
  in mat
