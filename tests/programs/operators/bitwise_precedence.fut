-- Bitwise operators bind tighter than comparisons, shifts looser than '+'.
-- ==
-- input { 3 }
-- output { true 16 }
-- input { 2 }
-- output { false 12 }
def main (x: i32): (bool, i32) =
  (x & 1 == 1, x + 1 << 2)
