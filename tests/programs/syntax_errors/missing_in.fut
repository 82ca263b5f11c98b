-- A let binding at the end of a body without 'in'.
-- ==
-- error: expected
def main (x: i32): i32 =
  let y = x + 1
