-- Prefix '!' is bitwise complement on integers.
-- ==
-- input { 0 5u8 }
-- output { -1 250u8 }
def main (x: i32) (y: u8): (i32, u8) = (!x, !y)
