-- Let bindings with type annotations fix the literal types.
-- ==
-- input { 2i64 }
-- output { 7i64 1.5f32 }
def main (n: i64): (i64, f32) =
  let y: i64 = 5
  let z: f32 = 1.5
  in (n + y, z)
