-- A map followed by a scan on random data.
-- ==
-- random input { [100]i32 }
-- auto output
def main (xs: []i32): []i32 = scan (+) 0 (map (\x -> x % 7) xs)
