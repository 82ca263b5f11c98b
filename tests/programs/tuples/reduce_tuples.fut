-- Reducing with an operator on tuples.
-- ==
-- input { [3, 9, -2, 5] }
-- output { -2 9 }
-- input { empty([0]i32) }
-- output { 2147483647 -2147483648 }
def main (xs: []i32): (i32, i32) =
  reduce (\(a1, b1) (a2, b2) -> (i32.min a1 a2, i32.max b1 b2))
         (i32.highest, i32.lowest)
         (zip xs xs)
