-- Functional record update with 'with'.
-- ==
-- input { 1 2 }
-- output { 10 2 1 }
def main (a: i32) (b: i32): (i32, i32, i32) =
  let r = {x = a, y = b}
  let r2 = r with x = 10
  in (r2.x, r2.y, r.x)
