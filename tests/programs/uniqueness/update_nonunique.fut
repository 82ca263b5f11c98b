-- Updating a non-unique parameter in place is an error.
-- ==
-- error: unique
def main (xs: []i32): []i32 = xs with [0] = 1
