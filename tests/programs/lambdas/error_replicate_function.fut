-- `replicate`'s element type parameter is unlifted: it cannot be a
-- function type.
-- ==
-- error: cannot be instantiated
def main (n: i64) (x: i32): i32 =
  let fs = replicate n (\y -> y + x)
  in fs[0] x
