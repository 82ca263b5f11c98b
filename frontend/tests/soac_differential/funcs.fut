-- ==
-- input { [1i32, 2i32, 3i32] [4i32, 5i32] 3i64 }
-- input { empty([0]i32) [1i32] 0i64 }
def dot [n] (xs: [n]i32) (ys: [n]i32): i32 = reduce (+) 0 (map2 (*) xs ys)
def pairs [n] [m] (xs: [n]i32) (ys: [m]i32): [n][m]i32 = map (\x -> map (+x) ys) xs
def evens (xs: []i32): []i32 = filter (\x -> x % 2 == 0) xs
def grow (k: i64) (xs: []i32): []i32 = xs ++ replicate k 7
def both [n] (xs: [n]i32): ([n]i32, i32, [n]bool) = (map (*2) xs, reduce (+) 0 xs, map (>1) xs)
def sized (n: i64) (xs: [n]i32): [n]i32 = map (+1) xs
def main (xs: []i32) (ys: []i32) (k: i64) =
  let e = evens (xs ++ ys)
  let g = grow k e
  let (a, b, c) = both g
  let s = sized (length xs) xs
  in (dot xs xs, pairs xs ys, e, g, a, b, c, s, map (\x -> dot [x, x] [1, 2]) ys, map (\r -> length (evens r)) (pairs xs ys))
