-- `rep`'s size comes from where its result is used; here nothing says
-- what it is.
-- ==
-- error: cannot determine the size
def main (x: i32): i64 = length (rep x)
