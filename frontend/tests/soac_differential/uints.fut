-- ==
-- input { [250u8, 7u8, 0u8, 128u8, 255u8] [3u8, 200u8, 1u8, 9u8, 255u8] }
def main (xs: []u8) (ys: []u8) =
  let ys = map (\y -> if y == 0 then 1 else y) ys
  in (map2 (+) xs ys, map2 (-) xs ys, map2 (*) xs ys, map2 (/) xs ys, map2 (%) xs ys, map2 (//) xs ys,
      map2 (%%) xs ys, map2 (<<) xs ys, map2 (>>) xs ys, map2 (>>>) xs ys, map2 (<) xs ys,
      map u8.popc xs, map u8.clz xs, map u8.ctz xs, map i32.u8 xs, map i8.u8 xs, map u64.u8 xs,
      map f32.u8 xs, map (\x -> u8.i32 (i32.u8 x * 3)) xs, map u8.abs xs, map u8.sgn xs, map (\x -> !x) xs,
      u8.sum xs, u8.product xs, u8.maximum xs, u8.minimum xs, u8.highest, u8.lowest, i8.highest, i8.lowest)
