-- The body has size `m` where the declared result size is `n`.
-- ==
-- error: expected
def f [n][m] (xs: [n]i32) (ys: [m]i32): [n]i32 = map (+1) ys

def main (xs: []i32): []i32 = f xs xs
