-- Literal suffixes select the integer type.
-- ==
-- input { 1i8 }
-- output { 1i8 2i16 3i32 4i64 5u8 6u16 7u32 8u64 }
def main (k: i8): (i8, i16, i32, i64, u8, u16, u32, u64) =
  (k, 2i16, 3i32, 4i64, 5u8, 6u16, 7u32, 8u64)
