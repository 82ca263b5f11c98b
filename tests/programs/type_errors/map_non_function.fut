-- map requires a function as its first argument.
-- ==
-- error: expected
def main (xs: []i32): []i32 = map 1 xs
