-- ==
-- input { [1.5f32, -2.5f32, 0.0f32, 3.75f32, -0.5f32, 1e10f32] [2.0f32, 0.5f32, -1.0f32, 2.0f32, 4.0f32, 3.0f32] }
def main (xs: []f32) (ys: []f32) =
  (map2 (/) xs ys, map2 (%) xs ys, map2 (**) (map f32.abs xs) ys, map f32.sqrt (map f32.abs xs),
   map f32.exp xs, map f32.log (map f32.abs xs), map f32.sin xs, map f32.cos xs, map f32.tan xs,
   map f32.floor xs, map f32.ceil xs, map f32.round xs, map f32.trunc xs, map f32.sgn xs,
   map f32.isnan xs, map f32.isinf (map (/0) xs), map f32.isfinite xs, map2 f32.pow (map f32.abs xs) ys,
   map3 f32.mad xs ys xs, map f32.recip ys, map (\x -> f32.from_fraction (i64.f32 x) 3) xs,
   map f32.to_bits xs, map (f32.from_bits <-< f32.to_bits) xs, map i32.f32 xs, map u8.f32 xs, map i64.f32 xs,
   map f64.f32 xs, map f16.f32 xs, map bool.f32 xs, map (\x -> f32.bool (x > 1)) xs,
   f32.sum xs, f32.product xs, f32.maximum xs, f32.minimum xs, f32.pi, f32.e, f32.epsilon, f32.inf, f32.nan,
   map2 f32.max xs ys, map2 f32.min xs ys, map f32.neg xs, t32 3.7f32, r32 5, r64 (-3), t64 (-3.9))
