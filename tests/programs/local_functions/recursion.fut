-- A local function is not in scope in its own body (only top-level
-- functions may be recursive).
-- ==
-- error: Unknown name "fact"

def main (x: i32): i32 =
  let fact (n: i32): i32 = if n == 0 then 1 else n * fact (n - 1)
  in fact x
