-- An assertion checked on every loop iteration.
-- ==
-- input { 4 }
-- output { 10 }
-- input { 50 }
-- error: Assertion is false
def main (n: i32): i32 =
  loop acc = 0 for i < n do
    let acc' = acc + i + 1
    in assert (acc' < 1000) acc'
