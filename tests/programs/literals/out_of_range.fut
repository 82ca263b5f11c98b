-- An integer literal without a suffix must fit the type its context
-- gives it (only suffixed literals wrap).
-- ==
-- error: out of bounds for type
def main (x: u8): u8 = x + 256
