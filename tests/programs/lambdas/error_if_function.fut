-- Which function an `if` returns would depend on a run-time value: a
-- function cannot be returned from its branches.
-- ==
-- error: returned from the branches
def main (b: bool) (x: i32): i32 =
  let f = if b then (\y -> y + 1) else (\y -> y * 2)
  in f x
