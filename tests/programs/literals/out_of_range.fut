-- An integer literal without a suffix must fit the type its context
-- gives it (only suffixed literals wrap).
-- ==
-- error: does not fit
def main (x: u8): u8 = x + 256
