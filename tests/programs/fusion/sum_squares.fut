-- map-reduce fusion into a redomap.
-- ==
-- input { [1i64, 2i64, 3i64, 4i64] }
-- output { 30i64 }
-- structure { Screma 1 Redomap 1 }

def main (xs: []i64): i64 = reduce (+) 0 (map (\x -> x * x) xs)
