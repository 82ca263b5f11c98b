-- An unclosed parenthesis.
-- ==
-- error: expected
def main (x: i32): i32 = (x + 1 * 2
