-- Passing a freshly computed array to a consuming function.
-- ==
-- input { [1, 2, 3] }
-- output { [2, 3, 100] }
def last_to_100 (xs: *[]i32): *[]i32 = xs with [length xs - 1] = 100

def main (xs: []i32): []i32 = last_to_100 (map (+1) xs)
