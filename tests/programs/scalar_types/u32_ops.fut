-- u32: underflow wraps, division and remainder are unsigned.
-- ==
-- input { 0u32 }
-- output { 4294967295u32 2147483647u32 5u32 3u32 }
def main (z: u32): (u32, u32, u32, u32) =
  let m = z - 1
  in (m, m / 2, m % 10, 7u32 / 2)
