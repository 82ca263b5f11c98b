-- ==
-- input { [3i32, 1i32, 2i32] [1.5f32, 0.5f32, 2.5f32] }
def swap 'a 'b ((x, y): (a, b)): (b, a) = (y, x)
def id 't (x: t): t = x
def first [n] 't (xs: [n]t): t = xs[0]
def last [n] 't (xs: [n]t): t = xs[n - 1]
def pairs 'a [n] (xs: [n]a): [n](a, a) = zip xs xs
def count 'a [n] (p: a -> bool) (xs: [n]a): i64 = reduce (+) 0 (map (\x -> if p x then 1 else 0) xs)
def main (xs: []i32) (ys: []f32) =
  (swap (1i32, 2.5f32) |> (.0), id xs, first ys, last xs, (unzip (pairs ys)).1, count (> 1) xs, count (> 1.0) ys,
   map swap (zip xs ys) |> unzip |> (.1), id (id 3u8))
