-- Applying a value that is not a function.
-- ==
-- error: expected
def main (x: i32): i32 =
  let y = 1
  in y x
