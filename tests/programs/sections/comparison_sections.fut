-- Sections of comparison operators as predicates.
-- ==
-- input { [3, -1, 0, 7] }
-- output { [3, 7] [true, false, false, true] [false, true, true, false] }
def main (xs: []i32): ([]i32, []bool, []bool) =
  (filter (>0) xs, map (0<) xs, map (<=0) xs)
