-- SOACs over f16 arrays: map, reduce, scan, hist (the first and last
-- elements to bin 0, the others to bin 1), filter, maximum and minimum
-- (all values exactly representable in f16).
-- ==
-- input { [1.5f16, -2.0f16, 0.25f16, 4.0f16] }
-- output { [3.0f16, -4.0f16, 0.5f16, 8.0f16] 3.75f16 [1.5f16, -0.5f16, -0.25f16, 3.75f16] -3.0f16 [5.5f16, -1.75f16] [1.5f16, 0.25f16, 4.0f16] 4.0f16 -2.0f16 }
-- input { empty([0]f16) }
-- output { empty([0]f16) 0.0f16 empty([0]f16) 1.0f16 [0.0f16, 0.0f16] empty([0]f16) -f16.inf f16.inf }
def main [n] (xs: [n]f16): ([n]f16, f16, [n]f16, f16, [2]f16, []f16, f16, f16) =
  ( map (* 2.0) xs
  , reduce (+) 0.0 xs
  , scan (+) 0.0 xs
  , reduce (*) 1.0 xs
  , hist (+) 0.0 2 (map (\i -> if i == 0 || i == n - 1 then 0 else 1) (iota n)) xs
  , filter (> 0.0) xs
  , f16.maximum xs
  , f16.minimum xs )
