-- Index of the maximum of a mapped array: the map fuses into the reduce.
-- ==
-- input { [3, 9, 2, 9, 1] }
-- output { 1i64 45i32 }
-- structure { Screma 1 Redomap 1 }

def main [n] (xs: [n]i32): (i64, i32) =
  reduce (\(i, a) (j, b) -> if a > b || (a == b && i < j) then (i, a) else (j, b)) (-1, i32.lowest) (zip (iota n) (map (\x -> x * x - 4 * x) xs))
