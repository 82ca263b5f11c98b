-- A binary operator missing an operand.
-- ==
-- error: expected
def main (x: i32): i32 = x + * 2
