-- Widening an unsigned value zero-extends; widening a signed value sign-extends.
-- ==
-- input { 200u8 -1i8 }
-- output { 200 -1 65535u16 }
def main (x: u8) (y: i8): (i32, i32, u16) =
  (i32.u8 x, i32.i8 y, u16.i16 (i16.i8 y))
