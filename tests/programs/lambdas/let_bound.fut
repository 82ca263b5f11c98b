-- A lambda bound to a name and applied several times.
-- ==
-- input { 3 }
-- output { 12 }
def main (x: i32): i32 =
  let f = \y -> y * 2
  in f (f x)
