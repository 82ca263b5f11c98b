-- Nested tuple patterns.
-- ==
-- input { 1 }
-- output { 321 }
def main (x: i32): i32 =
  let ((a, b), c) = ((x, x + 1), x + 2)
  in c * 100 + b * 10 + a
