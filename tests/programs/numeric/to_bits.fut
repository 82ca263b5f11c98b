-- Reinterpreting floats as bits and back.
-- ==
-- input { 1.0f32 }
-- output { 1065353216u32 -2.0f32 }
def main (x: f32): (u32, f32) =
  (f32.to_bits x, f32.from_bits 3221225472u32)
