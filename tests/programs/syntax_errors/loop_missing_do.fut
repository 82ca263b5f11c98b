-- A loop without 'do'.
-- ==
-- error: expected
def main (n: i32): i32 = loop acc = 0 for i < n acc + i
