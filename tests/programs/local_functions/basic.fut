-- A local function defined with let.
-- ==
-- input { 3 }
-- output { 12 }
def main (x: i32): i32 =
  let f (y: i32) = y * 2
  in f (f x)
