-- Backward pipe.
-- ==
-- input { [1, 2, 3] }
-- output { 9 }
def main (xs: []i32): i32 =
  i32.sum <| map (+1) xs
