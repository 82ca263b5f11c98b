-- i8 arithmetic wraps around on overflow.
-- ==
-- input { 127i8 100i8 }
-- output { -128i8 -56i8 }
-- input { -128i8 1i8 }
-- output { -127i8 2i8 }
def main (x: i8) (y: i8): (i8, i8) = (x + 1, y * 2)
