-- A function whose two parameters share a size, applied to arrays of
-- different size parameters.
-- ==
-- error: expected
def dot [n] (xs: [n]i32) (ys: [n]i32): i32 = i32.sum (map2 (*) xs ys)

def main [n][m] (xs: [n]i32) (ys: [m]i32): i32 = dot xs ys
