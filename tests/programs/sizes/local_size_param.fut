-- A local function with a size parameter, used at two different sizes.
-- ==
-- input { [1, 2] [3] }
-- output { [2, 3] [4] }
def main [n][m] (xs: [n]i32) (ys: [m]i32): ([n]i32, [m]i32) =
  let inc [k] (zs: [k]i32): [k]i32 = map (+1) zs
  in (inc xs, inc ys)
