-- ==
-- input { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] }
def main (m: [][]i32) =
  let a = loop acc = 0 for r in m do acc + r[0] * r[1]
  let b = loop acc = [0, 0] for r in m do map2 (+) acc r
  let c = loop (s, p) = (0i32, 1i32) for (x, y) in zip (map (\r -> r[0]) m) (map (\r -> r[1]) m) do (s + x, p * y)
  let d = loop acc = [] for r in m do acc ++ r
  let e = map (\r -> loop t = 0 for x in r do t * 10 + x) m
  in (a, b, c.0, c.1, d, e)
