-- A function without annotations whose parameters must have the same size
-- (inferred from map2), applied to arrays of different size parameters.
-- ==
-- error: expected
def add xs ys = map2 (\(x: i32) (y: i32) -> x + y) xs ys

def main [n][m] (xs: [n]i32) (ys: [m]i32): i32 = i32.sum (add xs ys)
