-- A tuple holding a function cannot be a loop parameter.
-- ==
-- error: loop parameters
def main (x: i32): i32 =
  let (acc, _) = loop (acc, f) = (x, (+ 1)) for _i < 4 do (f acc, f)
  in acc
