-- Record patterns bind fields by name.
-- ==
-- input { 5 6 }
-- output { 30 }
def main (a: i32) (b: i32): i32 =
  let {x, y} = {y = b, x = a}
  in x * y
