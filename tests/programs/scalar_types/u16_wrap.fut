-- u16 overflow wraps modulo 65536.
-- ==
-- input { 65535u16 1000u16 }
-- output { 0u16 16960u16 }
def main (x: u16) (y: u16): (u16, u16) = (x + 1, y * y)
