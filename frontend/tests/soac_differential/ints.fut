-- ==
-- input { [-7, 7, 0, 100, -128, 2147483647, -2147483648] [2, -2, 3, -7, 5, -1, -1] }
def main (xs: []i32) (ys: []i32) =
  let ys = map (\y -> if y == 0 then 1 else y) ys
  in (map2 (/) xs ys, map2 (%) xs ys, map2 (//) xs ys, map2 (%%) xs ys,
      map2 (\x y -> x ** (y & 7)) xs ys, map2 (<<) xs ys, map2 (>>) xs ys, map2 (>>>) xs ys,
      map2 (&) xs ys, map2 (|) xs ys, map2 (^) xs ys, map (i32.abs) xs, map i32.sgn xs,
      map i32.popc xs, map i32.clz xs, map i32.ctz xs, map (i32.get_bit 3) xs, map (i32.set_bit 2 1) xs,
      map (\x -> !x) xs, map i32.neg xs, map2 i32.max xs ys, map2 i32.min xs ys)
