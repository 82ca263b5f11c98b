-- reduce with an associative but non-commutative operator (leftmost non-zero).
-- ==
-- input { [0, 0, 7, 0, 3] }
-- output { 7 }
-- input { [0, 0] }
-- output { 0 }
def main (xs: []i32): i32 =
  reduce (\a b -> if a != 0 then a else b) 0 xs
