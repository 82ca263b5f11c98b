-- ==
-- input { [1i32, 2i32, 3i32] [4i32, 5i32] }
def main (xs: []i32) (ys: []i32) =
  let sum [n] (zs: [n]i32): i32 = reduce (+) 0 zs
  let pairs [n] (zs: [n]i32): [n](i32, i32) = zip zs (reverse zs)
  let addall [n][m] (a: [n]i32) (b: [m]i32): [n][m]i32 = map (\x -> map (+x) b) a
  let apply_twice f x = f (f x)
  let twice_map f zs = map (apply_twice f) zs
  let k = length ys
  let capt = \i -> xs[i % length xs] + i32.i64 k
  in (sum xs, sum ys, unzip (pairs xs) |> (.1), addall xs ys, addall ys xs, twice_map (*3) ys, map capt (iota 5),
      (\(a: []i32) -> length a) (xs ++ ys), map (\r -> sum r) (addall ys xs), let f = (+) 1 in map f xs)
