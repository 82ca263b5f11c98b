-- The condition of an if must be a boolean.
-- ==
-- error: expected
def main (x: i32): i32 = if x then 1 else 2
