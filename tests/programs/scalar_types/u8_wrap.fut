-- u8 arithmetic wraps modulo 256.
-- ==
-- input { 200u8 100u8 }
-- output { 44u8 156u8 }
-- input { 255u8 0u8 }
-- output { 255u8 1u8 }
def main (x: u8) (y: u8): (u8, u8) = (x + y, y - x)
