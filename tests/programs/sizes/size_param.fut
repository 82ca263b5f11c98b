-- A function with a size parameter preserving the length.
-- ==
-- input { [1, 2, 3] }
-- output { [2, 4, 6] }
def double [n] (xs: [n]i32): [n]i32 = map (*2) xs

def main (xs: []i32): []i32 = double xs
