-- An empty array returned by a polymorphic function (the prelude's
-- `map2` builds a `[n]c` without knowing `c`) takes its row sizes from
-- the application's type (Note [Empty results of polymorphic functions]);
-- before, the interpreter returned `[0][0]` and `transpose` of it failed.
-- Found by `futmlir fuzz`.
-- ==
-- entry: rows
-- input { [1, 2, 3] } output { empty([0][3]i64) }

entry rows [n] (_: [n]i32) = map2 (\_ _ -> replicate n 1i64) (replicate 0 2i32) (replicate 0 2i64)

-- ==
-- entry: transposed
-- input { [[6u16, 0u16]] } output { 4i32 }

entry transposed [m] (_: [1][m]u16) =
  reduce (+) 0i32 (map2 (\_ _ -> 2i32)
                        (transpose (map2 (\_ _ -> replicate m 1i64) (replicate 0 1f32) (replicate 0 6i16)))
                        (replicate m 10u64))
