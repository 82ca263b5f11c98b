-- Chaining calls to a consuming helper.
-- ==
-- input { 4i64 }
-- output { [7, 0, 8, 9] }
def set (xs: *[]i32) (i: i64) (v: i32): *[]i32 = xs with [i] = v

def main (n: i64): []i32 =
  let xs = replicate n 0
  let xs = set xs 0 7
  let xs = set xs 2 8
  in set xs 3 9
