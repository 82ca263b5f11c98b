-- map-hist fusion: the buckets and values are computed in the histogram's
-- lambda.
-- ==
-- input { [1i64, 5i64, 12i64, 7i64, 3i64, 15i64] }
-- output { [20i32, 1i32, 19i32, 3i32, 0i32] }
-- structure { Hist 1 Map 0 Screma 0 }

def main (xs: []i64): []i32 = hist (+) 0 5 (map (% 5) xs) (map (\x -> i32.i64 x) xs)
