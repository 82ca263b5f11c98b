-- A scan whose operator combines one-element arrays: the simplifier
-- turns the one-wide `map2` into an index and a `replicate`, so it is no
-- vectorised operator, and the scan runs as a sequential loop over the
-- rows (Note [Array reductions]). Before, segop-to-imp failed with "an
-- array where a scalar was expected". Found by `futmlir fuzz`.
-- ==
-- input { [true, false, true] [1i8, 2i8, 3i8] } output { [[0u32], [0u32], [0u32]] }
-- input { empty([0]bool) empty([0]i8) } output { empty([0][1]u32) }
entry main [m] (a0: [m]bool) (a1: [m]i8) =
  (scan (map2 u32.min) (replicate 1 u32.highest) (replicate m (replicate 1 0u32)))
