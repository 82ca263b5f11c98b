-- A suffixed integer literal out of its type's range wraps, as in
-- Futhark (`257u8` is `1u8`, `255i8` is `-1i8`, `2**64` as `u64` is 0);
-- a minus in front negates the wrapped value. Also as a pattern.
-- ==
-- input { -1i8 }
-- output { -1i8 1u8 -128i8 127i8 -1i16 -1i32 0u64 255u8 true }
def main (x: i8): (i8, u8, i8, i8, i16, i32, u64, u8, bool) =
  ( 255i8, 257u8, 128i8, -129i8, 65535i16, 4294967295i32, 18446744073709551616u64, 0x1ffu8
  , match x case 255i8 -> true case _ -> false )
