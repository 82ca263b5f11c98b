-- Backward function composition '<-<' applies the right function first.
-- ==
-- input { 3 }
-- output { 7 }
def main (x: i32): i32 =
  let g = (+1) <-< (*2)
  in g x
