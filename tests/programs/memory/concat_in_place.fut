-- Concats whose parts are made in the concat's own block
-- (mem-short-circuit, Note [Short-circuiting] in
-- passes/src/mem/short_circuit.rs), and concats whose parts must still
-- be copied: a part read after the concat, a part used twice, a part
-- that is a parameter, a concat along an inner dimension.
-- ==
-- entry: two_maps
-- input { [1f32, 2f32] [3f32] } output { [2f32, 4f32, 4f32] }
-- input { empty([0]f32) [3f32] } output { [4f32] }
-- input { [1f32] empty([0]f32) } output { [2f32] }

-- ==
-- entry: rows
-- input { [[1i32, 2i32], [3i32, 4i32]] 3i64 }
-- output { [[2i32, 3i32], [4i32, 5i32], [0i32, 0i32], [0i32, 0i32], [0i32, 0i32], [1i32, 2i32], [3i32, 4i32]] }

-- ==
-- entry: read_after
-- input { [1i64, 2i64, 3i64] } output { [2i64, 4i64, 6i64, 0i64, 1i64, 2i64] 12i64 }

-- ==
-- entry: twice
-- input { [5i32, 6i32] } output { [10i32, 12i32, 10i32, 12i32, 5i32, 6i32] }

-- ==
-- entry: inner
-- input { [[1i32, 2i32], [3i32, 4i32]] } output { [[1i32, 2i32, 2i32, 3i32], [3i32, 4i32, 4i32, 5i32]] }

-- ==
-- entry: in_loop
-- input { [1i32, 2i32] 3i64 } output { [1i32, 2i32, 2i32, 3i32, 2i32, 3i32, 3i32, 4i32, 2i32, 3i32, 3i32, 4i32, 3i32, 4i32, 4i32, 5i32] }

entry two_maps (xs: []f32) (ys: []f32) = concat (map (* 2) xs) (map (+ 1) ys)

-- Three parts: a map, a replicate and the parameter itself (copied).
entry rows [n] (xss: [n][2]i32) (k: i64) =
  map (map (+ 1)) xss ++ replicate k (replicate 2 0) ++ xss

-- The first part is read again after the concat: it keeps its block.
entry read_after (xs: []i64) =
  let ys = map (* 2) xs
  let zs = ys ++ iota (length xs)
  in (zs, i64.sum ys)

-- One part twice: it cannot be at two places.
entry twice (xs: []i32) =
  let ys = map (* 2) xs
  in ys ++ ys ++ xs

-- Along the rows' dimension: the parts interleave, so they are copied.
entry inner (xss: [][2]i32) = map2 concat xss (map (map (+ 1)) xss)

-- A concat in each round of a loop, its result the next round's input.
entry in_loop (xs: []i32) (n: i64) =
  loop ys = xs for _i < n do ys ++ map (+ 1) ys
