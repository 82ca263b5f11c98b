-- Integers of different widths are not implicitly converted.
-- ==
-- error: expected
def main (x: i32) (y: i64): i64 = x + y
