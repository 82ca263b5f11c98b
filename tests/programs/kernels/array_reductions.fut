-- Reductions and scans whose operator combines arrays (Note [Array
-- reductions]): a vectorised operator becomes a segmented reduction over
-- the columns; any other operator a sequential loop over the rows.
-- ==
-- input { [[1, 2, 3], [4, 5, 6], [6, 7, 8]] }
-- output { [11, 14, 17] }
-- input { empty([0][3]i32) }
-- output { [0, 0, 0] }
def main [n] [m] (xss: [n][m]i32) : [m]i32 =
  reduce (map2 (+)) (replicate m 0) xss

-- A redomap of a vectorised operator, with its own neutral element.
-- ==
-- entry: redomap
-- input { [[1, 2], [3, 4]] [10, 20] }
-- output { [18, 32] }
entry redomap [n] [m] (xss: [n][m]i32) (ne: [m]i32) : [m]i32 =
  reduce (map2 (+)) ne (map (map (* 2)) xss)

-- An operator that is a loop over the arrays: no interchange.
-- ==
-- entry: looped
-- input { [[1, 2, 3], [4, 5, 6], [6, 7, 8]] }
-- output { [11, 14, 17] }
entry looped [n] [m] (xss: [n][m]i32) : [m]i32 =
  reduce_comm (\(xs: [m]i32) (ys: [m]i32) ->
                 loop zs = replicate m 0 for i < m do
                   let zs[i] = xs[i] + ys[i] in zs)
              (replicate m 0) xss

-- Inside a map: each thread reduces its rows' arrays.
-- ==
-- entry: nested
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] }
-- output { [[4, 6], [12, 14]] }
entry nested [k] [n] [m] (xsss: [k][n][m]i32) : [k][m]i32 =
  map (\xss -> reduce (\a b -> loop c = copy a for i < m do let c[i] = c[i] + b[i] in c)
                      (replicate m 0) xss)
      xsss

-- A scan with a vectorised operator, and a tuple of arrays.
-- ==
-- entry: scanned
-- input { [[1, 2], [3, 4], [5, 6]] [[1f32, 1f32], [2f32, 2f32], [3f32, 3f32]] }
-- output { [[1, 2], [4, 6], [9, 12]] [[1f32, 1f32], [3f32, 3f32], [6f32, 6f32]] }
entry scanned [n] [m] (xss: [n][m]i32) (yss: [n][m]f32) : ([n][m]i32, [n][m]f32) =
  let (a, b) = unzip (scan (\(x, y) (x', y') -> (map2 (+) x x', map2 (+) y y'))
                           (replicate m 0, replicate m 0f32) (zip xss yss))
  in (a, b)

-- A doubly vectorised operator: the interchange applies twice.
-- ==
-- entry: cube
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]], [[1, 1], [1, 1]]] }
-- output { [[7, 9], [11, 13]] }
entry cube [n] [a] [b] (xsss: [n][a][b]i32) : [a][b]i32 =
  reduce (map2 (map2 (+))) (replicate a (replicate b 0)) xsss

-- An operator whose first op takes no operands (the constant index of
-- `a[0]`): no interchange, and no crash looking for the maps' width.
-- ==
-- entry: picked
-- input { [[1, 2, 3], [4, 5, 6], [2, 9, 9]] }
-- output { [4, 5, 6] }
-- input { empty([0][3]i32) }
-- output { [-1, 0, 0] }
entry picked [n] [m] (xss: [n][m]i32) : [m]i32 =
  reduce (\a b -> if a[0] > b[0] then a else b) (replicate m 0 with [0] = -1) xss
