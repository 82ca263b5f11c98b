-- reduce with several associative operators.
-- ==
-- input { [3, 1, 4, 1, 5] }
-- output { 14 60 5 1 }
-- input { empty([0]i32) }
-- output { 0 1 -2147483648 2147483647 }
def main (xs: []i32): (i32, i32, i32, i32) =
  (reduce (+) 0 xs, reduce (*) 1 xs,
   reduce i32.max i32.lowest xs, reduce i32.min i32.highest xs)
