-- A negated unsuffixed literal must fit its type too: `-4` is no `u8`.
-- ==
-- error: Literal -4 out of bounds for type `u8`

def main : u8 = -4
