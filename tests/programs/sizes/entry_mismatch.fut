-- Entry point arguments whose sizes must agree but do not.
-- ==
-- input { [1, 2] [3, 4] }
-- output { [4, 6] }
-- input { [1, 2] [3] }
-- error: size
def main [n] (xs: [n]i32) (ys: [n]i32): [n]i32 = map2 (+) xs ys
