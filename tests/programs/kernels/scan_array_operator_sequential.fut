-- Scans whose operators combine arrays without being a vectorised
-- `map`: each runs as a sequential loop over the rows, the results
-- updated in place (Note [Array reductions]).
-- ==
-- input { [[1, 2], [3, 4], [5, 6]] } output { [[1, 2], [3, 4], [5, 6]] [[1, 2], [3, 4], [5, 6]] }
entry main [n][m] (xss: [n][m]i32) =
  (scan (\xs ys -> if xs[0] > 100 then xs else ys) (replicate m 0) xss,
   scan (\xs ys -> loop zs = copy ys for i < m do zs with [i] = zs[i] + 0 * xs[i]) (replicate m 0) xss)
