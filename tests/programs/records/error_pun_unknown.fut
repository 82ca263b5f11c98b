-- A punned field needs a variable of that name in scope.
-- ==
-- error: unknown
def main (x: i32): i32 =
  let r = {x, y}
  in r.x
