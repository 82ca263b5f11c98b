-- ==
-- input { [1i32, 2i32, 3i32] [1i32, 2i32] 4i64 }
def mk (n: i64): []i32 = iota n |> map i32.i64 |> filter (\x -> x % 2 == 0)
def add3 (a: i32) (b: i32) (c: i32): i32 = a + b * c
def sizes [n] (xs: [n]i32): (i64, [n]i32, []i32) = (n, xs, xs ++ xs)
def base: []i32 = [5, 6, 7]
def total: i32 = i32.sum base
def main (xs: []i32) (ys: []i32) (k: i64) =
  let a = mk k
  let b = map (add3 1 2) xs
  let c = map2 (add3 0) xs xs
  let (n, s1, s2) = sizes ys
  let d = loop (m, zs) = (0i64, []) for i < 3 do (m + i, zs ++ [i32.i64 m])
  let e = loop (us, vs) = (xs, xs) for i < 2 do (us ++ [0], vs)
  let f = xs == xs
  let g = [xs, xs] == [xs, xs]
  let h = loop r = {a = xs, b = 0i32} for i < 2 do r with b = r.b + i32.sum r.a
  let w = (mk (k + 2), total, base, map (+total) base)
  in (a, b, c, n, s1, s2, d.0, d.1, e.0, e.1, f, g, h.a, h.b, w.0, w.1, w.2, w.3, length (mk 0))
