-- Right shift on unsigned values fills with zeros.
-- ==
-- input { 240u8 }
-- output { 60u8 224u8 }
def main (x: u8): (u8, u8) = (x >> 2, x << 1)
