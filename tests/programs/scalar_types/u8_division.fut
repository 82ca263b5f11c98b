-- u8 division and remainder.
-- ==
-- input { 250u8 3u8 }
-- output { 83u8 1u8 }
def main (x: u8) (y: u8): (u8, u8) = (x / y, x % y)
