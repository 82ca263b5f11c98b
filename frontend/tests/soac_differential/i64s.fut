-- ==
-- input { [9223372036854775807i64, -9223372036854775808i64, 5i64, -3i64] [3i64, -1i64, 2i64, 7i64] }
def main (xs: []i64) (ys: []i64) =
  (map2 (+) xs ys, map2 (*) xs ys, map2 (/) xs ys, map2 (%) xs ys, map2 (//) xs ys, map2 (%%) xs ys,
   map i32.i64 xs, map u32.i64 xs, map f64.i64 xs, map f32.i64 xs, map u64.i64 xs, map (\x -> i64.u64 (u64.i64 x / 3)) xs,
   map (\x -> x >> 63) xs, map (\x -> x >>> 63) xs, map (\x -> x << 62) xs, map i64.to_i64 xs, map i8.to_i64 [1i8, -1i8])
