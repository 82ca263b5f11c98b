-- Concatenations of three pieces into a scatter with two destinations
-- (a scatter into a zipped array): each destination is written three
-- times per row, and the maps making the index pieces fuse with it.
-- ==
-- input { [0, 0, 0, 0, 0, 0] [0f32, 0f32, 0f32, 0f32, 0f32, 0f32] [0i64, 1i64] }
-- output { [1, 1, 2, 2, 3, 3] [1f32, 1f32, 2f32, 2f32, 3f32, 3f32] }
-- structure { Concat 0 Screma 1 }

def main [k] [n] (xs: *[k]i32) (ys: *[k]f32) (is: [n]i64) : ([k]i32, [k]f32) =
  let m = n + n + n
  let idx = (is ++ map (+ 2) is ++ map (+ 4) is) :> [m]i64
  let vs = (replicate n 1 ++ replicate n 2 ++ replicate n 3) :> [m]i32
  let ws = (replicate n 1f32 ++ replicate n 2f32 ++ replicate n 3f32) :> [m]f32
  let (xs', ys') = unzip (scatter (zip xs ys) idx (zip vs ws))
  in (xs', ys')
