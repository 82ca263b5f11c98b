-- Comparison operators on integers.
-- ==
-- input { 3 5 }
-- output { true true false false true false }
-- input { 5 5 }
-- output { false true true false false true }
def main (x: i32) (y: i32): (bool, bool, bool, bool, bool, bool) =
  (x < y, x <= y, x == y, x > y, x != y, x >= y)
