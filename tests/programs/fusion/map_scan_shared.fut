-- The map's result is also returned: the scanomap maps it out too, nothing
-- is computed twice.
-- ==
-- input { [1, 2, 3] }
-- output { [3i32, 9i32, 18i32] [3i32, 6i32, 9i32] }
-- structure { Screma 1 Scanomap 1 }

def main (xs: []i32): ([]i32, []i32) = let ys = map (* 3) xs in (scan (+) 0 ys, ys)
