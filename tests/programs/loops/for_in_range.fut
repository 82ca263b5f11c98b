-- A for-in loop over a range.
-- ==
-- input { 4 }
-- output { 24 }
-- input { 1 }
-- output { 1 }
def main (n: i32): i32 =
  loop p = 1 for i in 1..n do p * i
