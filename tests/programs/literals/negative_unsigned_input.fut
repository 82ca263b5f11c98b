-- A negative literal with an unsigned suffix in an input wraps, as
-- Futhark's value reader has it: `-1u16` is 65535.
-- ==
-- input { [5u16, -1u16, 0u16] } output { [5u16, 65535u16, 0u16] 65535u16 }

def main (xs: []u16) = (xs, u16.maximum xs)
