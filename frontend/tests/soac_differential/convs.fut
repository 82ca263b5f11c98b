-- ==
-- input { [-1i8, 127i8, -128i8, 0i8] [255u16, 65535u16, 0u16, 1u16] [-1.7f64, 1e20f64, -1e20f64, 0.5f64] }
def main (a: []i8) (b: []u16) (c: []f64) =
  (map i16.i8 a, map u16.i8 a, map u32.i8 a, map i64.i8 a, map f32.i8 a,
   map i8.u16 b, map i16.u16 b, map i32.u16 b, map u64.u16 b, map f64.u16 b,
   map i8.f64 c, map u8.f64 c, map i32.f64 c, map u32.f64 c, map i64.f64 c, map u64.f64 c, map f32.f64 c, map f16.f64 c,
   map bool.i8 a, map i32.bool (map bool.u16 b), map u8.bool [true, false], map f64.bool [true, false])
