-- Printing the largest unsigned values.
-- ==
-- input { 0u8 }
-- output { 255u8 65535u16 4294967295u32 18446744073709551615u64 }
def main (x: u8): (u8, u16, u32, u64) =
  (x - 1, u16.u8 x - 1, u32.u8 x - 1, u64.u8 x - 1)
