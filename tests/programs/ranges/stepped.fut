-- Ranges with an explicit second element determining the stride.
-- ==
-- input { 9 }
-- output { [1, 3, 5, 7, 9] [1, 3, 5, 7] }
def main (n: i32): ([]i32, []i32) = (1..3...n, 1..3..<n)
