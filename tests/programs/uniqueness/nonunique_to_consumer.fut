-- Passing a non-unique parameter to a consuming function is an error.
-- ==
-- error: unique
def f (xs: *[]i32): *[]i32 = xs with [0] = 1

def main (xs: []i32): []i32 = f xs
