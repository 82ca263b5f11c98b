-- A lambda may be the last argument of an application without
-- parentheses; its body extends as far as it can.
-- ==
-- input { 4i64 } output { [0i64, 2i64, 4i64, 6i64] [1i64, 3i64, 5i64, 7i64] }

entry main (n: i64) =
  let xs = tabulate n \i -> i * 2
  let ys = map2 (+) (replicate n 1) xs |> map \x -> x
  in (xs, ys)
