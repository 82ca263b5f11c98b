-- Tuple patterns in function parameters.
-- ==
-- input { 6 7 }
-- output { 42 }
def mul ((a, b): (i32, i32)): i32 = a * b

def main (x: i32) (y: i32): i32 = mul (x, y)
