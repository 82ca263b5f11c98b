-- Bitwise and, or, xor and left shift.
-- ==
-- input { 12 10 }
-- output { 8 14 6 192 }
def main (x: i32) (y: i32): (i32, i32, i32, i32) =
  (x & y, x | y, x ^ y, x << 4)
