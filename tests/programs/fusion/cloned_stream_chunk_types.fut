-- A reduction over a scan inside a map's lambda fuses into a stream;
-- the map then fuses through a stream with the scan and the reduction
-- around it, which copies its lambda and the inner stream with it. The
-- inner stream's chunk parameters name its chunk size in their types
-- (`[c]i32`): the copy's must name the copy's chunk size, not the
-- original's. soac-unstream{nested=true} then unstreams both streams,
-- the inner one's copy included.
-- ==
-- input { [3f32, 1f32, 2f32] [[1, 2], [3, -4], [0, 5]] [7, 8, 9] }
-- output { 24i32 16.0f64 }
-- input { empty([0]f32) empty([0][2]i32) empty([0]i32) }
-- output { 0i32 0.0f64 }

def main [n][m] (xs: [n]f32) (rows: [n][m]i32) (ks: [n]i32) : (i32, f64) =
  let lows = scan f32.min f32.highest xs
  let inner (x: f32) (row: [m]i32) : f64 =
    let (p, mx) = reduce (\(a, b) (c, e) -> (a * c, i32.max b e)) (1f64, i32.lowest)
                         (zip (replicate m (f64.f32 x)) (scan (*) 1 row))
    in p + f64.i32 mx
  in reduce (\(a, b) (c, e) -> (a + c, b + e)) (0i32, 0f64)
            (zip ks (map2 inner lows rows))
