-- zip and unzip, zip3 and unzip3.
-- ==
-- input { [1, 2] [3, 4] [true, false] }
-- output { [3, 4] [1, 2] [4, 6] [false, true] }
def main [n] (xs: [n]i32) (ys: [n]i32) (bs: [n]bool): ([n]i32, [n]i32, [n]i32, [n]bool) =
  let (a, b) = unzip (zip ys xs)
  let (c, _, e) = unzip3 (map3 (\x y bb -> (x + y, x, !bb)) xs ys bs)
  in (a, b, c, e)
