-- partition splits an array by a predicate.
-- ==
-- input { [1, 2, 3, 4, 5] }
-- output { [2, 4] [1, 3, 5] }
def main (xs: []i32): ([]i32, []i32) = partition (\x -> x % 2 == 0) xs
