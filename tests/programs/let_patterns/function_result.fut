-- Destructuring the tuple result of a function call.
-- ==
-- input { [3, 9, -2, 5] }
-- output { -2 9 }
def minmax (xs: []i32): (i32, i32) =
  (i32.minimum xs, i32.maximum xs)

def main (xs: []i32): (i32, i32) =
  let (lo, hi) = minmax xs
  in (lo, hi)
