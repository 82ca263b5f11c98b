-- Reductions down the columns of a matrix, which `segop-coalesce` has
-- the GPU reduce by columns (Note [Column reductions]): sums (integers,
-- exact), maxima, a product of pairs, a batch of matrices, sizes that
-- are not multiples of a group's 32 columns, long columns split into
-- chunks, and an empty matrix. The expected outputs come from the
-- interpreter.
-- ==
-- entry: sums
-- random input { [1000][77]i32 }
-- auto output
-- random input { [5][3]i32 }
-- auto output
-- random input { [20000][40]i32 }
-- auto output
-- input { empty([0][4]i32) }
-- output { [0, 0, 0, 0] }

entry sums [n][m] (xss: [n][m]i32) : [m]i32 = map i32.sum (transpose xss)

-- ==
-- entry: maxima
-- random input { [3000][45]f32 }
-- auto output

entry maxima [n][m] (xss: [n][m]f32) : [m]f32 = map f32.maximum (transpose xss)

-- ==
-- entry: batch
-- random input { [3][500][33]i32 }
-- auto output

entry batch [b][n][m] (xsss: [b][n][m]i32) : [b][m]i32 =
  map (\xss -> map i32.sum (transpose xss)) xsss

-- A reduction of pairs down the columns: sums of squares and counts of
-- odd elements.
-- ==
-- entry: pairs
-- random input { [2000][50]i32 }
-- auto output

entry pairs [n][m] (xss: [n][m]i32) : ([m]i32, [m]i32) =
  unzip (map (\col -> reduce (\(a, b) (c, d) -> (a + c, b + d)) (0, 0)
                             (map (\x -> (x * x, x & 1)) col))
             (transpose xss))
