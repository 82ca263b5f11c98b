-- Rebinding the updated array under the old name is fine.
-- ==
-- input { [1, 2, 3] }
-- output { 9 }
def main (xs: *[]i32): i32 =
  let xs = xs with [0] = 4
  in xs[0] + xs[1] + xs[2]
