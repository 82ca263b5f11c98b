-- An unterminated array literal.
-- ==
-- error: expected
def main (x: i32): []i32 = [x, 2
