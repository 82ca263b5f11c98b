-- A data file input mixed with inline inputs.
-- ==
-- input @ data/numbers.in
-- output { 10i64 10 }
-- input { [4, 2] }
-- output { 2i64 4 }
def main (xs: []i32): (i64, i32) = (length xs, i32.maximum xs)
