-- Exponentiation on integers and floats.
-- ==
-- input { 2 10 }
-- output { 1024 1 4.0 8.0f32 }
-- input { 3 4 }
-- output { 81 1 4.0 8.0f32 }
def main (b: i32) (e: i32): (i32, i32, f64, f32) =
  (b ** e, b ** 0, 16.0 ** 0.5, 2f32 ** 3f32)
