-- A unique parameter may be updated in place and returned.
-- ==
-- input { [1, 2, 3] }
-- output { [0, 2, 3] }
def main (xs: *[]i32): *[]i32 = xs with [0] = 0
