-- `rep x`: `replicate` at the size the context wants (an annotation, the
-- other argument of `map2`); `sized n xs`: `xs` at size `n`, checked at
-- run time; `manifest`: a fresh copy; `zip2`/`unzip2`: `zip`/`unzip`.
-- ==
-- input { [3, -1, 4] }
-- output { [4, 0, 5] [7i64, 7i64] [3, 4] [3, -1, 4] [3, -1, 4] [true, true, true] }
-- input { [3, -1, 4, 5] }
-- error: Value of shape \[[0-9]\] cannot match shape of type
-- input { empty([0]i32) }
-- error: Value of shape \[[0-9]\] cannot match shape of type
def main [n] (xs: [n]i32) =
  let sevens: [2]i64 = rep 7
  let positive = sized 2 (filter (> 0) xs)
  let (ys, bs) = unzip2 (zip2 (manifest xs) (rep true))
  in (map2 (+) xs (rep 1), sevens, positive, ys, xs, bs)
