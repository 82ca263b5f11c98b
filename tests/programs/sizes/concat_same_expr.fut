-- Two concatenations of the same arrays have the same size `n+n`, which
-- is also the declared result size.
-- ==
-- input { [1, 2] }
-- output { [2, 4, 2, 4] }
def main [n] (xs: [n]i32): [n + n]i32 = map2 (+) (xs ++ xs) (xs ++ xs)
