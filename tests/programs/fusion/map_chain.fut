-- A chain of four maps fuses into one.
-- ==
-- input { [1, 2, 3, 4] }
-- output { [5i32, 15i32, 25i32, 35i32] }
-- structure { Screma 1 Map 1 }

def main (xs: []i32): []i32 = map (+ 1) (map (* 2) (map (\x -> x - 3) (map (* 5) xs)))
