-- Booleans: comparison results, equality and conversion to integers.
-- ==
-- input { 3 4 }
-- output { true false 1 0 true }
def main (x: i32) (y: i32): (bool, bool, i32, i32, bool) =
  let a = x < y
  let b = x == y
  in (a, b, i32.bool a, i32.bool b, a != b)
