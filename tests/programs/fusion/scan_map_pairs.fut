-- A scan of pairs (two values combined at once) whose results a map
-- reads: the map is the post-lambda of one screma, which sees both
-- scanned values of a row.
-- ==
-- input { [1, 2, 3, 4, 5] [2.0f32, 1.0f32, 0.5f32, 4.0f32, 1.0f32] }
-- output { [2.0f32, 6.0f32, 6.0f32, 40.0f32, 60.0f32] }
-- structure { Screma 1 Stream 0 }

def main (xs: []i32) (ys: []f32): []f32 =
  let (ss, ps) = unzip (scan (\(a, b) (c, d) -> (a + c, b * d)) (0, 1) (zip xs ys))
  in map2 (\s p -> f32.i32 s * p) ss ps
