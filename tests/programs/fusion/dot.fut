-- Dot product: map2 then reduce is one redomap, no intermediate array.
-- ==
-- input { [1f32, 2f32, 3f32] [4f32, 5f32, 6f32] }
-- output { 32.0f32 }
-- structure { Screma 1 Redomap 1 Map 0 Reduce 0 }

def main [n] (xs: [n]f32) (ys: [n]f32): f32 = reduce (+) 0 (map2 (*) xs ys)
