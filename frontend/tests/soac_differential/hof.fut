-- ==
-- input { [1i32, 2i32, 3i32, 4i32] 2i32 }
def twice 'a (f: a -> a) (x: a): a = f (f x)
def compose 'a 'b 'c (f: b -> c) (g: a -> b) (x: a): c = f (g x)
def table: [4]i32 = [10, 20, 30, 40]
def scale = 3i32
def apply_all [n] (fs: [n]i32) (x: i32) = map (+x) fs
def main (xs: []i32) (k: i32) =
  let add k x = x + k
  let inc = add 1
  let sq = \x -> x * x
  in (map (twice inc) xs, map (compose sq inc) xs, xs |> map (* k) |> reduce (+) 0, map (add k >-> sq) xs,
      map (sq <-< add k) xs, map (`i32.max` 2) xs, map (2 `i32.max`) xs, map (\x -> table[i64.i32 (x % 4)] * scale) xs,
      apply_all table k, foldl (+) 0 xs, foldr (-) 0 xs, all (> 0) xs, any (> 3) xs, map (\x -> (x, x)) xs |> unzip |> (.0),
      map (.1) (zip xs xs), (\(a, b) -> a - b) (k, 1), (-) 10 k, (10 -) k, i32.sum xs, i32.product xs)
