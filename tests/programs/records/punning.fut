-- Field punning in record expressions.
-- ==
-- input { 7 }
-- output { 7 14 }
def main (n: i32): (i32, i32) =
  let x = n
  let y = n * 2
  let r = {x, y}
  in (r.x, r.y)
