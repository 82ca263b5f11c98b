-- Functions returning tuples are mapped and unzipped.
-- ==
-- input { [7, 10, 12] }
-- output { [2, 3, 4] [1, 1, 0] }
def main (xs: []i32): ([]i32, []i32) =
  unzip (map (\x -> (x / 3, x % 3)) xs)
