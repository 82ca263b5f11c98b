-- ==
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] }
def main (m: [][]i32) =
  let a = map (\r -> map (\x -> map (\y -> x * y) r) r) m
  let b = map (\r -> reduce (+) 0 (map (\x -> reduce (*) 1 (map (+x) r)) r)) m
  let c = map (\r -> scan (+) 0 (filter (>0) r)) m
  let d = map (\r -> loop acc = r for i < 2 do map (+ i32.i64 i) acc) m
  let e = map (\r -> if r[0] > 2 then reverse r else r) m
  let f = map (\r -> (hist (+) 0 3 (map (\x -> i64.i32 (x % 3)) r) r)) m
  let g = map (\r -> scatter (copy r) [0, 2] [r[2], r[0]]) m
  let h = map (\r -> let (p, q) = partition (>3) r in (length p, length q)) m |> unzip
  in (a, b, c, d, e, f, g, h.0, h.1, map (\r -> map (\x -> [x, x + 1]) r) m |> map flatten)
