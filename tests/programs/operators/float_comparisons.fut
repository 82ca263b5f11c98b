-- Comparison operators on floats.
-- ==
-- input { 1.5f32 -0.5f32 }
-- output { false true false true }
def main (x: f32) (y: f32): (bool, bool, bool, bool) =
  (x < y, x > y, x == y, x != y)
