-- mul_hi: the high half of the double-width product, signed and
-- unsigned, at every width; mad_hi adds a third value (wrapping).
-- ==
-- input { 100i8 200u8 30000i16 65535u16 1073741824i32 4294967295u32 4611686018427387904i64 18446744073709551615u64 }
-- output { 39i8 -1i8 156u8 100u8 13732i16 65534u16 2i32 -1i32 4294967294u32 1i64 0i64 18446744073709551614u64 18446744073709551615u64 }
def main (a: i8) (b: u8) (c: i16) (d: u16) (e: i32) (f: u32) (g: i64) (h: u64) =
  ( i8.mul_hi a a, i8.mul_hi (-1) 1, u8.mul_hi b b, u8.mad_hi b b b
  , i16.mul_hi c c, u16.mul_hi d d, i32.mul_hi e 8, i32.mul_hi (-2147483648) 2, u32.mul_hi f f
  , i64.mul_hi g 4, i64.mul_hi (-1) (-1), u64.mul_hi h h, u64.mad_hi h h 1 )
