-- One-dimensional array literals.
-- ==
-- input { 10 }
-- output { [10, 11, 12] }
def main (x: i32): []i32 = [x, x + 1, x + 2]
