-- `reduce` needs a two-argument operator.
-- ==
-- error: expected
def main (xs: []i32): i32 = reduce (\x -> x) 0 xs
