-- Lambdas with several parameters.
-- ==
-- input { [1, 2, 3] [4, 5, 6] }
-- output { [14, 25, 36] }
def main (xs: []i32) (ys: []i32): []i32 = map2 (\x y -> x * 10 + y) xs ys
