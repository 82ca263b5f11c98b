-- A local function with several annotated parameters.
-- ==
-- input { 2 3 4 }
-- output { 10 }
def main (a: i32) (b: i32) (c: i32): i32 =
  let fma (x: i32) (y: i32) (z: i32): i32 = x * y + z
  in fma a b c
