-- A descending range with a stride.
-- ==
-- input { 0 }
-- output { [10, 8, 6, 4, 2] [10, 7, 4, 1] }
def main (z: i32): ([]i32, []i32) = (10..8..>z, 10..7...1)
