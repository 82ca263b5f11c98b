-- i32 overflow wraps.
-- ==
-- input { 2147483647 65536 }
-- output { -2147483648 0 }
-- input { 0 3 }
-- output { 1 9 }
def main (x: i32) (y: i32): (i32, i32) = (x + 1, y * y)
