-- i32.sum, i32.product, i32.maximum and i32.minimum.
-- ==
-- input { [3, -1, 4, 2] }
-- output { 8 -24 4 -1 }
-- input { empty([0]i32) }
-- output { 0 1 -2147483648 2147483647 }
def main (xs: []i32): (i32, i32, i32, i32) =
  (i32.sum xs, i32.product xs, i32.maximum xs, i32.minimum xs)
