-- Dot product of two random f64 vectors of equal length.
-- ==
-- random input { [64]f64 [64]f64 }
-- auto output
def main [n] (xs: [n]f64) (ys: [n]f64): f64 = f64.sum (map2 (*) xs ys)
