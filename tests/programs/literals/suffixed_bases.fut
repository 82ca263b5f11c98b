-- Hexadecimal and binary literals with type suffixes.
-- ==
-- input { 0u8 }
-- output { 255u8 10i64 4095u16 }
def main (x: u8): (u8, i64, u16) =
  (0xffu8 + x, 0b1010i64, 0xfffu16)
