-- i16 overflow wraps.
-- ==
-- input { 32767i16 300i16 }
-- output { -32768i16 24464i16 }
def main (x: i16) (y: i16): (i16, i16) = (x + 1, y * y)
