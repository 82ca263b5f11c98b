-- `flatmap f xs`: the segments `f` gives each element, one after the
-- other, with their shape, flags (where a segment starts) and offsets,
-- and `f`'s other results; empty segments first, inside and last.
-- `flatmap'` without the other results; `f` declared with an existential
-- result size.
-- ==
-- input { [2i64, 0i64, 3i64, 1i64] }
-- output { [2i64, 0i64, 3i64, 1i64] [true, false, true, false, false, true]
--          [0i64, 2i64, 2i64, 5i64] [0i64, 1i64, 0i64, 1i64, 2i64, 0i64]
--          [20i64, 0i64, 30i64, 10i64] }
-- input { [0i64, 3i64, 0i64] }
-- output { [0i64, 3i64, 0i64] [true, false, false] [0i64, 0i64, 3i64]
--          [0i64, 1i64, 2i64] [0i64, 30i64, 0i64] }
-- input { [0i64, 0i64] }
-- output { [0i64, 0i64] empty([0]bool) [0i64, 0i64] empty([0]i64) [0i64, 0i64] }
-- input { empty([0]i64) }
-- output { empty([0]i64) empty([0]bool) empty([0]i64) empty([0]i64) empty([0]i64) }
def main (xs: []i64) = flatmap (\x -> (iota x, x * 10)) xs

def copies (x: i64): ?[k].[k]f32 = replicate x (f32.i64 x)

-- ==
-- entry: prime
-- input { [1i64, 2i64, 0i64, 3i64] }
-- output { [1i64, 2i64, 0i64, 3i64] [true, true, false, true, false, false]
--          [0i64, 1i64, 3i64, 3i64] [1f32, 2f32, 2f32, 3f32, 3f32, 3f32] }
entry prime (xs: []i64) = flatmap' copies xs

-- Inside a map, one flatmap per row: the sum of its data and its number
-- of segments that are not empty.
-- ==
-- entry: nested
-- input { [[2i64, 0i64], [1i64, 3i64]] }
-- output { [1i64, 3i64] [1i64, 2i64] }
entry nested (kss: [][]i64): ([]i64, []i64) =
  unzip (map (\ks -> let (_, flags, _, data, _) = flatmap (\k -> (iota k, k)) ks
                     in (i64.sum data, i64.sum (map i64.bool flags)))
             kss)
