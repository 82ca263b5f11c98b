-- Array literals whose elements are tuples.
-- ==
-- input { 1 }
-- output { [1, 3, 5] [2, 4, 6] }
def main (x: i32): ([]i32, []i32) =
  unzip [(x, x + 1), (x + 2, x + 3), (x + 4, x + 5)]
