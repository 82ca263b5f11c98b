-- The result size of concatenation is the sum of the operand sizes.
-- ==
-- input { [1, 2] [3, 4, 5] }
-- output { 5i64 [1, 2, 3, 4, 5] }
def cat [n][m] (xs: [n]i32) (ys: [m]i32): [n + m]i32 = xs ++ ys

def main (xs: []i32) (ys: []i32): (i64, []i32) =
  let zs = cat xs ys
  in (length zs, zs)
