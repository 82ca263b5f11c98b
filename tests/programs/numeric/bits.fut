-- i32.get_bit and i32.set_bit.
-- ==
-- input { 5 }
-- output { 1 0 1 7 4 }
def main (x: i32): (i32, i32, i32, i32, i32) =
  (i32.get_bit 0 x, i32.get_bit 1 x, i32.get_bit 2 x,
   i32.set_bit 1 x 1, i32.set_bit 0 x 0)
