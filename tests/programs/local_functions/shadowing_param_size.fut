-- A local function's parameter named like an outer size is its own: the
-- outer arrays keep their sizes.
-- ==
-- input { [1, 2, 3] } output { 6 }

def main [n] (xs: [n]i32) =
  let f (n: i64) (ys: [n]i32) = i32.sum ys + i32.i64 (n - n)
  in f n xs
