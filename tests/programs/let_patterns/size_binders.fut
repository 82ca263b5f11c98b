-- Size binders in `let`: `let [n] (xs: [n]t) = e` names the sizes of
-- `e`'s value, here an existential one (a filter's) and both of a
-- matrix's; the names are sizes and values both.
-- ==
-- input { [1, -2, 3, 4] }
-- output { 3i64 [1, 3, 4] [10i64, 11i64, 12i64] 2i64 3i64 [[1, 4], [2, 5], [3, 6]] }
-- input { [-1] }
-- output { 0i64 empty([0]i32) empty([0]i64) 2i64 3i64 [[1, 4], [2, 5], [3, 6]] }
def main (ys: []i32) =
  let [n] (xs: [n]i32) = filter (> 0) ys
  let [a][b] (m: [a][b]i32) = [[1, 2, 3], [4, 5, 6]]
  let k = 10
  let t: [b][a]i32 = transpose m
  in (n, xs, map (+ k) (iota n), a, b, t)
