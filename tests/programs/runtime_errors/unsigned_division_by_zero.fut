-- Unsigned division by zero.
-- ==
-- input { 7u32 0u32 }
-- error: division by zero
def main (x: u32) (y: u32): u32 = x / y
