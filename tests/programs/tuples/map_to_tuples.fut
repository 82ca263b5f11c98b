-- Mapping a function that returns tuples yields an array of tuples.
-- ==
-- input { [1, 2, 3] }
-- output { [1, 2, 3] [1, 4, 9] }
def main (xs: []i32): ([]i32, []i32) =
  unzip (map (\x -> (x, x * x)) xs)
