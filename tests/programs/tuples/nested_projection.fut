-- Projection from nested tuples.
-- ==
-- input { 1 }
-- output { 3 2 }
def main (x: i32): (i32, i32) =
  let t = (x, (x + 1, x + 2))
  in (t.1.1, t.1.0)
