-- Taking the head of an empty array.
-- ==
-- input { [5, 6] }
-- output { 5 }
-- input { empty([0]i32) }
-- error: out of bounds
def main (xs: []i32): i32 = head xs
