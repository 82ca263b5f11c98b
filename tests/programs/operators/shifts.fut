-- '>>' is an arithmetic shift on signed types; '>>>' is a logical shift.
-- ==
-- input { -16 }
-- output { -4 15 268435455 }
-- input { 64 }
-- output { 16 0 4 }
def main (x: i32): (i32, i32, i32) =
  (x >> 2, x >>> 28, x >>> 4)
