-- Forward function composition '>->' applies the left function first.
-- ==
-- input { 3 }
-- output { 8 }
def main (x: i32): i32 =
  let f = (+1) >-> (*2)
  in f x
