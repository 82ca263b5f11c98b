-- Loops inside a GPU thread that carry arrays they remake each
-- iteration (`reverse` and `rotate` read the whole previous array): on
-- the GPU each loop carries its arrays in two buffers of its own.
-- ==
-- input { 3i64 [1i64, 10i64] }
-- output { [14i64, 41i64] }
-- input { 3i64 empty([0]i64) }
-- output { empty([0]i64) }

def main (m: i64) (xs: []i64): []i64 =
  map (\x -> let ys = loop acc = replicate m x for i < 3 do
                        map2 (+) (reverse acc) (map (* i) (iota m))
             in reduce (+) 0 (map2 (*) ys (iota m))) xs

-- ==
-- entry: rounds
-- input { [1i64, 5i64] }
-- output { [445i64, 449i64] }

entry rounds (xs: []i64): []i64 =
  map (\x -> let (ys, _) = loop (acc: [3]i64, k) = ([x, 0, 0], 0) while k < 4 do
                             (map (+ 1) (rotate 1 acc), k + 1)
             in ys[0] * 100 + ys[1] * 10 + ys[2]) xs

-- In-place updates of the carried array need no buffers.
-- ==
-- entry: fill
-- input { 4i64 [0i64, 100i64] }
-- output { [6i64, 406i64] }

entry fill (m: i64) (xs: []i64): []i64 =
  map (\x -> let a = loop acc = replicate m 0 for i < m do acc with [i] = x + i
             in reduce (+) 0 a) xs
