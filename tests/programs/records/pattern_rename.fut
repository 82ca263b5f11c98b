-- Record patterns that rename fields.
-- ==
-- input { 9 4 }
-- output { 5 }
def main (a: i32) (b: i32): i32 =
  let {x = p, y = q} = {x = a, y = b}
  in p - q
