-- An if without 'else'.
-- ==
-- error: expected
def main (x: i32): i32 = if x > 0 then 1
