-- Input read from a data file.
-- ==
-- input @ data/numbers.in
-- output { 55 }
def main (xs: []i32): i32 = i32.sum xs
