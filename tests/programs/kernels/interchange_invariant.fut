-- After map-loop interchange, what the body computes from the loop index
-- and outside values alone (`f32.i64 i`) is computed once per iteration
-- on the host, not distributed into a kernel of its own (one segmap per
-- entry point here); a division that may fail stays behind its test in
-- the kernel. Map parameters used in the body besides the initial value,
-- and one not used at all.
-- ==
-- input { [[1f32, 2f32], [3f32, 4f32]] [10f32, 20f32] [1, 2] 3i64 }
-- output { [[21.875f32, 23.75f32], [43.125f32, 45.0f32]] }
-- structure gpu { /DoLoop/SegMap 3 SegMap 3 }

def main [n][m] (xss: [n][m]f32) (zs: [n]f32) (ws: [n]i32) (k: i64) : [n][m]f32 =
  map3 (\xs z _w -> loop ys = xs for i < k do map2 (\y x -> y * 0.5 + x + z + f32.i64 i) ys xs) xss zs ws

-- ==
-- entry: divide
-- input { [[1, 2]] 10 1i64 }
-- output { [[-9, -8]] }
-- input { [[1, 2]] 10 3i64 }
-- error: division by zero

entry divide [n][m] (xss: [n][m]i32) (x: i32) (k: i64) : [n][m]i32 =
  map (\xs -> loop ys = xs for i < k do map (\y -> y + x / (i32.i64 i - 1)) ys) xss

-- One input starting two merge parameters (one of them gets a copy).
-- ==
-- entry: twice
-- input { [[1, 2], [3, 4]] 2i64 }
-- output { [[3, 4], [5, 6]] [[4, 8], [12, 16]] }

entry twice [n][m] (xss: [n][m]i32) (k: i64) : ([n][m]i32, [n][m]i32) =
  unzip (map (\xs -> loop (a, b) = (xs, xs) for _i < k do (map (+ 1) a, map (* 2) b)) xss)
