-- A tuple of mixed element types as the result of main.
-- ==
-- input { 7 }
-- output { 7 3.5f32 true 7i64 }
def main (x: i32): (i32, f32, bool, i64) =
  (x, f32.i32 x / 2, x > 0, i64.i32 x)
