-- Escape-time iteration counts on integer-scaled points (fixed point, scale 4; '/' rounds down).
-- ==
-- input { [0, 8, -8, 2, 4, -3] [0, 0, 0, 2, 4, 5] 10 }
-- output { [10, 2, 10, 6, 3, 3] }
-- input { [8] [0] 1 }
-- output { [1] }
def escape (cr: i32) (ci: i32) (limit: i32): i32 =
  let (_, _, k) =
    loop (zr, zi, k) = (0, 0, 0) while k < limit && zr * zr + zi * zi <= 16 * 16 do
      (((zr * zr - zi * zi) / 4) + cr, ((2 * zr * zi) / 4) + ci, k + 1)
  in k

def main [n] (crs: [n]i32) (cis: [n]i32) (limit: i32): [n]i32 =
  map2 (\cr ci -> escape cr ci limit) crs cis
