-- Summing a range.
-- ==
-- input { 100 }
-- output { 5050 }
-- input { 1 }
-- output { 1 }
def main (n: i32): i32 = i32.sum (1..n)
