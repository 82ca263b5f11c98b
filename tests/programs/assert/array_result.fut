-- Asserting a property of an array before using it.
-- ==
-- input { [1, 2, 3] }
-- output { 1 }
-- input { empty([0]i32) }
-- error: Assertion is false
def main (xs: []i32): i32 =
  let ys = assert (length xs > 0) xs
  in ys[0]
