-- Segmented reductions over long rows (at least a group's worth): on the
-- GPU each row gets a group of threads; short rows a thread each. A
-- commutative operator (row sums), a non-commutative one (the first
-- index of a row's maximum), and a reduction whose mapped values are
-- also kept (a segmented redomap).
-- ==
-- random input { [4][1000]i32 }
-- auto output
-- random input { [3][300]i32 }
-- auto output
-- random input { [5][7]i32 }
-- auto output

def argmax [m] (row: [m]i32): (i32, i64) =
  reduce (\(a, i) (b, j) -> if b > a || (b == a && j < i) then (b, j) else (a, i))
         (i32.lowest, -1) (zip row (iota m))

def main [n][m] (xss: [n][m]i32): ([n]i32, [n]i32, [n]i64, [n][m]i32) =
  let ys = map (map (\x -> x % 1000)) xss
  let (maxs, idxs) = unzip (map argmax xss)
  in (map (reduce (+) 0) ys, maxs, idxs, ys)

-- ==
-- entry: sums
-- random input { [4][1000]i32 }
-- auto output
-- random input { [2][257]i32 }
-- auto output

entry sums [n][m] (xss: [n][m]i32): [n]i32 = map (reduce (+) 0) xss
