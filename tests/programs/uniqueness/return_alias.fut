-- Returning a non-unique parameter where a unique result is required.
-- ==
-- error: unique
def main (xs: []i32): *[]i32 = xs
