-- A map of a scan's result and an array from elsewhere: the array goes
-- through the screma's pre-lambda to its post-lambda. The scan's result
-- is returned too, so the post-lambda also yields it.
-- ==
-- input { [1, 2, 3] [10, 20, 30] }
-- output { [1, 2, 6] [11, 22, 36] }
-- input { empty([0]i32) empty([0]i32) }
-- output { empty([0]i32) empty([0]i32) }
-- structure { Screma 1 }

def main [n] (xs: [n]i32) (ys: [n]i32) : ([n]i32, [n]i32) =
  let ps = scan (*) 1 xs
  in (ps, map2 (+) ps ys)
