-- Nested for loops.
-- ==
-- input { 3 }
-- output { 9 }
-- input { 4 }
-- output { 36 }
def main (n: i32): i32 =
  loop s = 0 for i < n do
    loop t = s for j < n do t + i * j
