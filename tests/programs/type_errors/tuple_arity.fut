-- A tuple pattern with the wrong number of components.
-- ==
-- error: expected
def main (x: i32): i32 =
  let (a, b) = (x, x, x)
  in a + b
