-- A function cannot be a `loop` parameter.
-- ==
-- error: loop parameters
def main (x: i32): i32 =
  let f = loop f = (\y -> y) for _i < 3 do (\y -> f y + 1)
  in f x
