-- filter keeps elements satisfying a predicate, in order.
-- ==
-- input { [5, 2, 8, 3, 6] }
-- output { [2, 8, 6] }
-- input { [1, 3] }
-- output { empty([0]i32) }
def main (xs: []i32): []i32 = filter (\x -> x % 2 == 0) xs
