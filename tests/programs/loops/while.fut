-- A while loop doubling until a bound is reached.
-- ==
-- input { 100 }
-- output { 128 }
-- input { 1 }
-- output { 1 }
-- input { 129 }
-- output { 256 }
def main (n: i32): i32 =
  loop x = 1 while x < n do x * 2
