-- Two scatters of one size side by side fuse into one writing both
-- destinations (Futhark's scatter-scatter fusion), after their value maps
-- fused into them.
-- ==
-- input { [0i64, 2i64] [1i64, 0i64] }
-- output { [1i64, 0i64, 3i64, 0i64] [10i64, 11i64, 0i64, 0i64] }
-- structure { Screma 1 Scatter 1 Map 0 }

def main [k] (is: [k]i64) (js: [k]i64): ([4]i64, [4]i64) =
  let a = scatter (replicate 4 0) is (map (+ 1) is)
  let b = scatter (replicate 4 0) js (map (+ 10) js)
  in (a, b)
