-- Conversions between integer types truncate or extend.
-- ==
-- input { 200 300 -1 }
-- output { -56i8 44u8 255u8 200i64 -1i64 4464i16 }
def main (a: i32) (b: i32) (c: i32): (i8, u8, u8, i64, i64, i16) =
  (i8.i32 a, u8.i32 b, u8.i32 c, i64.i32 a, i64.i32 c, i16.i64 (i64.i32 (a + 69800)))
