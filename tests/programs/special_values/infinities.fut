-- Float division by zero gives infinities, not an error.
-- ==
-- input { 1.0 -1.0f32 }
-- output { f64.inf -f32.inf }
def main (x: f64) (y: f32): (f64, f32) = (x / 0, y / 0)
