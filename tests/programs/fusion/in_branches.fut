-- Fusion in both branches of an if.
-- ==
-- input { true [1, 2, 3] }
-- output { 12i32 }
-- structure { Screma 2 Redomap 2 }

def main (b: bool) (xs: []i32): i32 =
  if b then reduce (+) 0 (map (* 2) xs) else reduce (*) 1 (map (+ 1) xs)
