-- A division by zero reached only after several loop iterations.
-- ==
-- input { 3 }
-- output { 13 }
-- input { 5 }
-- error: division by zero
def main (n: i32): i32 =
  loop acc = 0 for i < n do acc + 12 / (4 - i)
