-- A loop with a tuple of loop parameters.
-- ==
-- input { 10 }
-- output { 55 }
-- input { 0 }
-- output { 0 }
-- input { 1 }
-- output { 1 }
-- input { 2 }
-- output { 1 }
def main (n: i32): i32 =
  let (a, _) = loop (a, b) = (0, 1) for _i < n do (b, a + b)
  in a
