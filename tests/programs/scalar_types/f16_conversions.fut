-- Conversions to and from f16: to integers (truncating toward zero), to
-- the other floats, from integers of several widths and from f64, to and
-- from bool, and bit patterns (-2.75 is sign 1, exponent 16, mantissa
-- 384: 0x8000 + 16 * 1024 + 384 = 49536).
-- ==
-- input { -2.75f16 }
-- output { -2i32 -2i64 254u8 -2.75f32 -2.75 200.0f16 -7.0f16 0.5f16 1.0f16 true 49536u16 1.0f16 }
-- input { 0.0f16 }
-- output { 0i32 0i64 0u8 0.0f32 0.0 200.0f16 -7.0f16 0.5f16 1.0f16 false 0u16 1.0f16 }
def main (x: f16): (i32, i64, u8, f32, f64, f16, f16, f16, f16, bool, u16, f16) =
  ( i32.f16 x, i64.f16 x, u8.i8 (i8.f16 x), f32.f16 x, f64.f16 x
  , f16.u8 200, f16.i64 (-7), f16.f64 0.5, f16.bool true, bool.f16 x
  , f16.to_bits x, f16.from_bits 0x3c00 )
