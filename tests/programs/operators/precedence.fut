-- Arithmetic operator precedence and left associativity.
-- ==
-- input { 2 3 4 }
-- output { 14 20 -5 5 18 }
def main (a: i32) (b: i32) (c: i32): (i32, i32, i32, i32, i32) =
  (a + b * c, (a + b) * c, a - b - c, 100 / 10 / a, a * b ** 2)
