-- Prefix negation of expressions.
-- ==
-- input { 4 }
-- output { -4 -5 -8 4 }
-- input { -3 }
-- output { 3 2 6 -3 }
def main (x: i32): (i32, i32, i32, i32) =
  (-x, -(x + 1), -x * 2, -(-x))
