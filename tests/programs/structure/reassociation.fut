-- Integer constants gather across + and - (integer arithmetic wraps, so
-- it reassociates): `((x - 2) + 1) + 1` is `x`. A commutative operator's
-- operands count in either order for CSE: `x * y` and `y * x` are one
-- multiplication. Floats do not reassociate.
-- ==
-- input { 5 3 1f32 } output { 5 15 15 3f32 }
-- structure { BinOp 3 }

def main (x: i32) (y: i32) (f: f32): (i32, i32, i32, f32) =
  (((x - 2) + 1) + 1, x * y, y * x, (f + 1) + 1)
