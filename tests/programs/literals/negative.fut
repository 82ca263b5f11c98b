-- Negative literals of several types.
-- ==
-- input { 10 }
-- output { 5 -1.5f32 -127i8 -20i64 }
def main (x: i32): (i32, f32, i8, i64) =
  (x + (-5), -1.5f32, -127i8, -2i64 * 10)
