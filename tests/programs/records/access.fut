-- Record construction and field access.
-- ==
-- input { 3 4 }
-- output { 7 -1 }
def main (a: i32) (b: i32): (i32, i32) =
  let r = {x = a, y = b}
  in (r.x + r.y, r.x - r.y)
