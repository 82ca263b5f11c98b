-- The math module's conversions r32, t32, r64 and t64 (prelude
-- functions over f32.i32, i32.f32, f64.i32 and i32.f64): t32 and t64
-- truncate towards zero.
-- ==
-- input { 3 -2.75f32 7 2.75 }
-- output { 3.0f32 -2i32 7.0 2i32 1.5f32 }
-- input { -8 9.99f32 0 -0.5 }
-- output { -8.0f32 9i32 0.0 0i32 -4.0f32 }
def main (a: i32) (x: f32) (b: i32) (y: f64): (f32, i32, f64, i32, f32) =
  (r32 a, t32 x, r64 b, t64 y, r32 a / r32 2)
