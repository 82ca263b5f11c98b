-- A function body whose size does not match the declared return size.
-- ==
-- error: expected
def f [n] (xs: [n]i32): [n]i32 = xs ++ xs

def main (xs: []i32): []i32 = f xs
