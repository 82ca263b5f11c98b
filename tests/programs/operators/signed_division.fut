-- Signed '/' and '%' round toward negative infinity; '//' and '%%' truncate toward zero.
-- ==
-- input { -7 2 }
-- output { -4 1 -3 -1 }
-- input { 7 -2 }
-- output { -4 -1 -3 1 }
-- input { 7 2 }
-- output { 3 1 3 1 }
-- input { -7 -2 }
-- output { 3 -1 3 -1 }
def main (x: i32) (y: i32): (i32, i32, i32, i32) =
  (x / y, x % y, x // y, x %% y)
