-- map keeps the size of its argument: zipping the result with the argument
-- is well-typed, and so is returning both at the declared size.
-- ==
-- input { [1, 2, 3] }
-- output { [1, 2, 3] [2, 4, 6] }
def double [n] (xs: [n]i32): [n]i32 = map (*2) xs

def main [n] (xs: [n]i32): ([n]i32, [n]i32) = unzip (zip xs (double xs))
