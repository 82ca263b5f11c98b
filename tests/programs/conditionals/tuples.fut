-- Branches returning tuples.
-- ==
-- input { 3 8 }
-- output { 3 8 }
-- input { 8 3 }
-- output { 3 8 }
def main (a: i32) (b: i32): (i32, i32) =
  if a <= b then (a, b) else (b, a)
