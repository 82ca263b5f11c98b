-- `xs ++ ys` has size `n+m`, so `split` takes it apart without a
-- coercion.
-- ==
-- input { [1, 2] [3, 4, 5] }
-- output { [1, 2] [3, 4, 5] }
def main [n][m] (xs: [n]i32) (ys: [m]i32): ([n]i32, [m]i32) = split (xs ++ ys)
