-- head, tail, last and init.
-- ==
-- input { [1, 2, 3, 4] }
-- output { 1 [2, 3, 4] 4 [1, 2, 3] }
-- input { [9] }
-- output { 9 empty([0]i32) 9 empty([0]i32) }
def main (xs: []i32): (i32, []i32, i32, []i32) =
  (head xs, tail xs, last xs, init xs)
