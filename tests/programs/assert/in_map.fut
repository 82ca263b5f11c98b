-- An assertion inside map fails if any element violates it.
-- ==
-- input { [1, 2, 3] }
-- output { [1, 2, 3] }
-- input { [1, -2, 3] }
-- error: Assertion is false
def main (xs: []i32): []i32 = map (\x -> assert (x >= 0) x) xs
