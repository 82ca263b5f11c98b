-- A parenthesised operator is a binary function.
-- ==
-- input { [5, 6, 7] [1, 2, 3] }
-- output { [4, 4, 4] [5, 12, 21] 18 }
def main (xs: []i32) (ys: []i32): ([]i32, []i32, i32) =
  (map2 (-) xs ys, map2 (*) xs ys, reduce (+) 0 xs)
