-- A for loop accumulating the loop counter.
-- ==
-- input { 5 }
-- output { 10 }
-- input { 0 }
-- output { 0 }
-- input { 100 }
-- output { 4950 }
def main (n: i32): i32 =
  loop acc = 0 for i < n do acc + i
