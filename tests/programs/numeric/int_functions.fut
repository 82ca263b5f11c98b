-- i32.max, i32.min, i32.abs and i32.sgn.
-- ==
-- input { -7 3 }
-- output { 3 -7 7 -1 1 }
-- input { 0 0 }
-- output { 0 0 0 0 0 }
def main (x: i32) (y: i32): (i32, i32, i32, i32, i32) =
  (i32.max x y, i32.min x y, i32.abs x, i32.sgn x, i32.sgn y)
