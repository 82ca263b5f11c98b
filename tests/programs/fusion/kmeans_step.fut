-- A k-means-style step: each point's nearest centre, then per-centre
-- counts and sums with reduce_by_index; the map feeds two histograms, so
-- it stays (a histogram cannot map out).
-- ==
-- input { [1f32, 2f32, 9f32, 10f32, 11f32] [0f32, 10f32] }
-- output { [2i32, 3i32] [3.0f32, 30.0f32] }
-- structure { Hist 2 }

def nearest (cs: []f32) (p: f32): i64 =
  let (_, i) = foldl (\(bd, bi) (c, j) -> let d = f32.abs (p - c) in if d < bd then (d, j) else (bd, bi)) (f32.inf, 0) (zip cs (indices cs))
  in i

def main [k] (ps: []f32) (cs: [k]f32): ([k]i32, [k]f32) =
  let ms = map (nearest cs) ps
  let counts = hist (+) 0 k ms (map (\_ -> 1) ps)
  let sums = reduce_by_index (replicate k 0) (+) 0 ms ps
  in (counts, sums)
