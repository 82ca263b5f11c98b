-- In-place updates whose new row is made in the row itself
-- (mem-short-circuit, Note [Short-circuiting] in
-- passes/src/mem/short_circuit.rs), and updates whose new row must be
-- made apart and copied: it reads elements of the row it replaces that
-- other threads write, or the row is also used elsewhere.
-- ==
-- entry: nw
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32], [7i32, 8i32, 9i32]] }
-- output { [[1i32, 2i32, 3i32], [5i32, 7i32, 9i32], [12i32, 15i32, 18i32]] }
-- input { [[1i32, 2i32]] } output { [[1i32, 2i32]] }

-- ==
-- entry: view_before
-- input { [[1i64, 2i64], [3i64, 4i64], [5i64, 6i64]] }
-- output { [[1i64, 2i64], [2i64, 4i64], [4i64, 8i64]] }

-- ==
-- entry: rotate_row
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] 1i64 }
-- output { [[1i32, 2i32, 3i32], [5i32, 6i32, 4i32]] }

-- ==
-- entry: fresh_rows
-- input { 3i64 2i64 } output { [[0i64, 0i64], [7i64, 7i64], [0i64, 2i64]] }

-- ==
-- entry: inner
-- input { [[[1i32, 2i32], [3i32, 4i32]], [[5i32, 6i32], [7i32, 8i32]]] }
-- output { [[[1i32, 2i32], [3i32, 4i32]], [[5i32, 6i32], [14i32, 16i32]]] }

-- ==
-- entry: row_used_too
-- input { [[1i32, 2i32], [3i32, 4i32]] } output { [[1i32, 2i32], [4i32, 6i32]] [4i32, 6i32] }

-- Needleman-Wunsch-like: each row from the one before and itself,
-- element by element (the new row is made in place).
entry nw [n][m] (xss: *[n][m]i32): [n][m]i32 =
  loop xss for i in 1..<n do
    xss with [i] = map2 (+) xss[i - 1] xss[i]

-- The row before, taken as a view before the map.
entry view_before [n][m] (xss: *[n][m]i64): [n][m]i64 =
  loop xss for i in 1..<n do
    let prev = xss[i - 1]
    in xss with [i] = map (* 2) prev

-- Each thread reads the element another thread writes: made apart.
entry rotate_row [n][m] (xss: *[n][m]i32) (i: i64): [n][m]i32 =
  xss with [i] = map (\j -> xss[i, (j + 1) % m]) (iota m)

entry fresh_rows (n: i64) (m: i64): [n][m]i64 =
  let xss = replicate n (replicate m 0)
  let xss = xss with [1] = replicate m 7
  in xss with [n - 1] = iota m |> map (* 2)

-- A row of a 3-d array, two indices.
entry inner [a][b][c] (xsss: *[a][b][c]i32): [a][b][c]i32 =
  xsss with [a - 1, b - 1] = map (* 2) xsss[a - 1, b - 1]

-- The new row is also returned: it cannot live only in the matrix.
entry row_used_too [n][m] (xss: *[n][m]i32): ([n][m]i32, [m]i32) =
  let row = map2 (+) xss[0] xss[n - 1]
  in (xss with [n - 1] = row, row)

-- ==
-- entry: slice_view
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32], [7i32, 8i32, 9i32]] 1i64 }
-- output { [[1i32, 2i32, 3i32], [5i32, 6i32, 4i32], [7i32, 8i32, 9i32]] }

-- A slice of the matrix taken before the map, which reads the element
-- of the row that the next thread writes: the row is made apart.
entry slice_view [n][m] (xss: *[n][m]i32) (i: i64): [n][m]i32 =
  let s = xss[0:n - 1]
  in xss with [i] = map (\j -> s[i, (j + 1) % m]) (iota m)
