-- `trace x` is `x` (`futmlir run` also prints it on stderr), inside a
-- `map` and on tuples too.
-- ==
-- input { [1, 2, 3] }
-- output { [2, 4, 6] 12 }
def main (xs: []i32) =
  let ys = map (\x -> trace (x * 2)) xs
  let (zs, s) = trace (ys, i32.sum ys)
  in (zs, s)
