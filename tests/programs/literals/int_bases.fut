-- Integer literals in decimal, hexadecimal and binary, with underscores.
-- ==
-- input { 0 }
-- output { 255 5 1000000 -16 }
-- input { 1 }
-- output { 256 6 1000001 -15 }
def main (x: i32): (i32, i32, i32, i32) =
  (0xff + x, 0b101 + x, 1_000_000 + x, -0x10 + x)
