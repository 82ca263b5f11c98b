-- Anonymous functions passed to map.
-- ==
-- input { [1, 2, 3] }
-- output { [2, 5, 10] }
def main (xs: []i32): []i32 = map (\x -> x * x + 1) xs
