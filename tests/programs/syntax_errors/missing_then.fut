-- An if without 'then'.
-- ==
-- error: expected
def main (x: i32): i32 = if x > 0 1 else 2
