-- A parameter named like an operator is a variable like any other: using
-- it after consuming it is an error.
-- ==
-- error: consumed

def main ((++): *[]i32) =
  let _ = (++) with [0] = 0
  in (++)
