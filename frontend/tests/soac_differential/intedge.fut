-- ==
-- input { [-128i8, -1i8, 0i8, 1i8, 127i8] [-1i8, 3i8, -3i8, 7i8, 8i8] }
def main (a: []i8) (b: []i8) =
  (map2 (*) a b, map2 (**) a (map i8.abs b), map2 (<<) a b, map2 (>>) a b, map2 (>>>) a b, map2 (+) a b, map2 (-) a b,
   map2 (\x y -> if y == 0 then 0 else x / y) a b, map2 (\x y -> if y == 0 then 0 else x % y) a b,
   map2 (\x y -> if y == 0 then 0 else x // y) a b, map2 (\x y -> if y == 0 then 0 else x %% y) a b,
   map i8.neg a, map i8.sgn a, map i8.popc a, map i8.clz a, map i8.ctz a, map u8.i8 a, map i16.i8 a, map u64.i8 a, map f32.i8 a,
   map (\x -> i8.i32 (i32.i8 x * 1000)) a, map2 i8.max a b, map2 i8.min a b, map2 (&) a b, map2 (|) a b, map2 (^) a b, map (\x -> !x) a,
   i8.sum a, i8.product a, i8.maximum a, i8.minimum a, i8.highest, i8.lowest, map i8.to_i64 a, map i8.u8 (map u8.i8 a))
