-- A record with a function field counts as a function: it cannot be
-- returned from an `if`.
-- ==
-- error: returned from the branches
def main (b: bool) (x: i32): i32 =
  let r = if b then {scale = 2, op = (+ 1)} else {scale = 3, op = (* 2)}
  in r.op x * r.scale
