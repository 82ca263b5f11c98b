-- A loop parameter annotated with size `n` whose body doubles it.
-- ==
-- error: expected
def main [n] (xs: [n]i32): [n]i32 =
  loop (acc: [n]i32) = xs for i < 2 do acc ++ acc
