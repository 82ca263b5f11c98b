-- A function consuming its argument, called on a fresh copy.
-- ==
-- input { [1, 2, 3] }
-- output { [1, 2, 3] [1, 42, 3] }
def set1 (xs: *[]i32): *[]i32 = xs with [1] = 42

def main (xs: []i32): ([]i32, []i32) = (xs, set1 (copy xs))
