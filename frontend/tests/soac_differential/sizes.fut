-- ==
-- input { [1i32, 2i32, 3i32, 4i32, 5i32, 6i32] 2i64 3i64 }
def chunks [n] (k: i64) (m: i64) (xs: [n]i32): [k][m]i32 = unflatten (xs :> [k * m]i32)
def pad [n] (xs: [n]i32) (m: i64): [m]i32 = tabulate m (\i -> if i < n then xs[i] else 0)
def mk (n: i64): [n]i64 = iota n
def outer [n] [m] (xs: [n]i32) (ys: [m]i32): [n][m]i32 = map (\x -> map (*x) ys) xs
def main [n] (xs: [n]i32) (k: i64) (m: i64) =
  let c = chunks k m xs
  let p = pad xs (n + 2)
  let o = outer xs p
  let t = transpose o
  let q = map (\r -> reduce (+) 0 r) t
  let z = zip (mk n) xs
  in (c, p, q, unzip z |> (.0), length (mk (n * 2)), map (\i -> length (mk i)) (mk 4), o[1:3, 2:4])
