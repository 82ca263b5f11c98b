-- Ranges over other integer types.
-- ==
-- input { 250u8 }
-- output { [250u8, 251u8, 252u8, 253u8, 254u8, 255u8] }
def main (x: u8): []u8 = x..255
