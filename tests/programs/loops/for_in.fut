-- A for-in loop over the elements of an array.
-- ==
-- input { [1, 2, 3, 4] }
-- output { 30 }
-- input { empty([0]i32) }
-- output { 0 }
def main (xs: []i32): i32 =
  loop acc = 0 for x in xs do acc + x * x
