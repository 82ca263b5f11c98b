-- Arrays of floating-point numbers.
-- ==
-- input { 0.5f32 }
-- output { [0.5f32, 1.0f32, 1.5f32] 3.0f32 }
def main (x: f32): ([]f32, f32) =
  let a = [x, 2 * x, 3 * x]
  in (a, f32.sum a)
