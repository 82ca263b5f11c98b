-- Entry points whose names have primes compile: their MLIR symbols
-- escape the prime (`futhark_f$27`), and `f'` and `f''` stay apart.
-- ==
-- entry: f'
-- input { [1, 2] } output { [2, 3] }

-- ==
-- entry: f''
-- input { [1, 2] } output { [3, 4] }

entry f' (xs: []i32) = map (+ 1) xs

entry f'' (xs: []i32) = map (+ 2) xs
