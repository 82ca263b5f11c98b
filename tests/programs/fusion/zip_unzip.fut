-- Fusion across unzip: the tuple-valued map and the map2 over its parts
-- are one map.
-- ==
-- input { [1, 2, 3] }
-- output { [2i32, 6i32, 12i32] }
-- structure { Screma 1 Map 1 }

def main (xs: []i32): []i32 = let (as, bs) = unzip (map (\x -> (x, x + 1)) xs) in map2 (*) as bs
