-- Bit members of the integer modules, written in the prelude: get_bit and
-- set_bit (out-of-range bit numbers read 0 and write nothing), ctz, mad_hi,
-- and the constants of every integer type.
-- ==
-- input { 12i32 }
-- output { 1i32 0i32 0i32 13i32 4i32 12i32 2i32 32i32 157u8 -128i8 32767i16 0u16 -9223372036854775808i64 }

def main (x: i32) =
  (i32.get_bit 2 x, i32.get_bit 0 x, i32.get_bit 40 x, i32.set_bit 0 x 1, i32.set_bit 3 x 0,
   i32.set_bit (-1) x 1, i32.ctz x, i32.ctz 0, u8.mad_hi 200 200 1,
   i8.lowest, i16.highest, u16.lowest, i64.lowest)
