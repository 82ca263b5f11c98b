-- Arithmetic binds tighter than comparison, which binds tighter than && and ||.
-- ==
-- input { 5 }
-- output { true true }
-- input { 100 }
-- output { false true }
-- input { 20 }
-- output { false false }
def main (x: i32): (bool, bool) =
  (x * 2 + 1 < 30, x > 0 && x < 10 || x == 100)
