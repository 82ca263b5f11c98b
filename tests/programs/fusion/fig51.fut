-- In the spirit of thesis Figure 51: a producer used by two consumers and
-- a tuple-valued map, all inside one root map, fuse into one; the map
-- whose result is also returned stays a result of the fused map.
-- ==
-- input { [1, 2, 3] [4, 5, 6] }
-- output { [36i32, 63i32, 96i32] [2i32, 4i32, 6i32] }
-- structure { Screma 1 Map 1 }

def main [n] (xs: [n]i32) (ys: [n]i32): ([n]i32, [n]i32) =
  let x1 = map (* 2) xs
  let y1 = map2 (+) x1 ys
  let (z1, z2) = unzip (map (\y -> (y + 1, y - 1)) y1)
  let q = map2 (*) y1 ys
  in (map3 (\a b c -> a + b + c) z1 z2 q, x1)
