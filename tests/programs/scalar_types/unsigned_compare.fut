-- Unsigned comparisons treat the high bit as magnitude.
-- ==
-- input { 200 100 }
-- output { true false true }
def main (a: i32) (b: i32): (bool, bool, bool) =
  (u8.i32 a > u8.i32 b, i8.i32 a > i8.i32 b, u32.i32 (-1) > 0u32)
