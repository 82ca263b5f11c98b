-- Each thread makes an array whose size the host knows (`m`): on the GPU
-- one allocation serves all threads (memory expansion), interleaved.
-- ==
-- input { 3i64 [1i64, 2i64, 3i64, 4i64] }
-- output { [5i64, 10i64, 15i64, 20i64] }
-- input { 1i64 [7i64] }
-- output { [0i64] }
-- input { 4i64 empty([0]i64) }
-- output { empty([0]i64) }

def main (m: i64) (xs: []i64): []i64 =
  map (\x -> let ys = map (\j -> x * j) (iota m)
             in reduce (+) 0 (reverse ys) + ys[m - 1]) xs
