-- replicate and copy.
-- ==
-- input { 3i64 1.5f32 }
-- output { [1.5f32, 1.5f32, 1.5f32] [1.5f32, 1.5f32, 1.5f32] }
def main (n: i64) (x: f32): ([]f32, []f32) =
  let a = replicate n x
  in (a, copy a)
