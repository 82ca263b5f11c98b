-- Using an undefined type name.
-- ==
-- error: unknown
def main (x: widget): i32 = 0
