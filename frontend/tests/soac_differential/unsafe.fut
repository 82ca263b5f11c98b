-- ==
-- input { [1i32, 2i32, 3i32] 1i64 }
def main (xs: []i32) (i: i64) =
  (#[unsafe] xs[i], #[unsafe] map (\j -> xs[j]) [0, 1, 2], #[unsafe] (xs[i:] ++ xs[:i]), #[sequential] reduce (+) 0 xs)
