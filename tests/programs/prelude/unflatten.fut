-- unflatten, unflatten_3d and unflatten_4d take their sizes from the
-- argument's type: `[n*m]t` gives `[n][m]t`.
-- ==
-- input { [1, 2, 3, 4, 5, 6] 2i64 3i64 }
-- output { [[1, 2, 3], [4, 5, 6]] [[1, 2], [3, 4], [5, 6]] [[[1], [2]], [[3], [4]], [[5], [6]]] [[[[1, 2, 3], [4, 5, 6]]]] }
-- input { empty([0]i32) 0i64 5i64 }
-- output { empty([0][5]i32) empty([5][0]i32) empty([5][0][1]i32) empty([1][1][0][5]i32) }
def main [k] (xs: [k]i32) (n: i64) (m: i64) =
  let ys = xs :> [n*m]i32
  in (unflatten ys, unflatten (xs :> [m*n]i32), unflatten_3d (xs :> [m*n*1]i32), unflatten_4d (xs :> [1*1*n*m]i32))
