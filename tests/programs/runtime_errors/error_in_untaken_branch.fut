-- An erroneous expression in a branch that is not taken is not evaluated.
-- ==
-- input { [1, 2] 5i64 }
-- output { 0 }
-- input { [1, 2] 1i64 }
-- output { 2 }
def main (xs: []i32) (i: i64): i32 =
  if i >= length xs then 0 else xs[i]
