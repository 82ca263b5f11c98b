-- A loop parameter with a type annotation.
-- ==
-- input { 3 }
-- output { 8.0f32 }
-- input { 0 }
-- output { 1.0f32 }
def main (n: i32): f32 =
  loop (acc: f32) = 1 for _i < n do acc * 2
