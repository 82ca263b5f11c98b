-- Largest and smallest values of integer types.
-- ==
-- input { 0 }
-- output { 2147483647 -2147483648 255u8 -128i8 9223372036854775807i64 18446744073709551615u64 0u16 }
def main (x: i32): (i32, i32, u8, i8, i64, u64, u16) =
  (i32.highest + x, i32.lowest + x, u8.highest, i8.lowest, i64.highest, u64.highest, u16.lowest)
