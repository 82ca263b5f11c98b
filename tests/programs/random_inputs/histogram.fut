-- A histogram of random bytes into 16 bins.
-- ==
-- random input { [200]u8 }
-- auto output
def main (xs: []u8): []i32 =
  hist (+) 0 16 (map (\x -> i64.u8 (x % 16)) xs) (map (\_ -> 1) xs)
