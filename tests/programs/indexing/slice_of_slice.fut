-- Slicing the result of a slice.
-- ==
-- input { [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] }
-- output { [3, 5] }
def main (xs: []i32): []i32 =
  let ys = xs[2:8]
  in ys[1::2][:2]
