-- Cheap code an outer map computes from its own index (a test of `i`, a
-- row `a[i - 1]` of the input) is recomputed by the inner kernel's
-- threads rather than given a kernel of its own that writes an array of
-- it (Note [Sinking cheap code] in lowering/src/soac_to_segop/sink.rs):
-- each stencil step is one segmap, and no row of the input is copied.
-- The structure counts the whole program's segmaps: one for each
-- stencil (there were two each), two for `rows_elsewhere`.
-- ==
-- entry: border
-- input { [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32], [7f32, 8f32, 9f32]] 1i64 }
-- output { [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32], [7f32, 8f32, 9f32]] }
-- input { [[1f32, 2f32, 3f32, 4f32], [4f32, 5f32, 6f32, 7f32], [7f32, 8f32, 9f32, 1f32], [0f32, 1f32, 0f32, 1f32]] 2i64 }
-- output { [[1f32, 2f32, 3f32, 4f32], [4f32, 4.6f32, 5.16f32, 7f32], [7f32, 4.76f32, 3.56f32, 1f32], [0f32, 1f32, 0f32, 1f32]] }
-- structure gpu { SegMap 4 }

-- ==
-- entry: clamped
-- input { [[1f32, 2f32], [3f32, 4f32]] 1i64 }
-- output { [[1.6f32, 2.2f32], [2.8f32, 3.4f32]] }
-- input { [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32]] 3i64 }
-- output { [[2.664f32, 3.176f32, 3.688f32], [3.312f32, 3.824f32, 4.336f32]] }

-- ==
-- entry: rows_elsewhere
-- input { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] }
-- output { [[8i32, 10i32], [6i32, 8i32], [4i32, 6i32]] [4i32, 8i32, 12i32] }

def step [n][m] (a: [n][m]f32): [n][m]f32 =
  tabulate_2d n m (\i j ->
    if i == 0 || j == 0 || i == n - 1 || j == m - 1 then a[i, j]
    else 0.2f32 * (a[i, j] + a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1]))

entry border [n][m] (a: [n][m]f32) (k: i64): [n][m]f32 =
  loop a for _i < k do step a

-- The rows above and below, clamped at the edges: views the inner map
-- takes as inputs.
def step_clamped [n][m] (a: [n][m]f32): [n][m]f32 =
  tabulate_2d n m (\i j ->
    let up = i64.max 0 (i - 1)
    let dn = i64.min (n - 1) (i + 1)
    let lf = i64.max 0 (j - 1)
    let rt = i64.min (m - 1) (j + 1)
    in 0.2f32 * (a[i, j] + a[up, j] + a[dn, j] + a[i, lf] + a[i, rt]))

entry clamped [n][m] (a: [n][m]f32) (k: i64): [n][m]f32 =
  loop a for _i < k do step_clamped a

-- A row the outer map also returns, and a scalar it also returns: these
-- stay computed by the outer map.
entry rows_elsewhere [n][m] (a: [n][m]i32): ([n][m]i32, [n]i32) =
  unzip (map (\i ->
           let r = a[(i + 1) % n]
           let s = i32.i64 (i + 1) * 4
           in (map2 (+) r a[(i + 2) % n], s))
         (iota n))
