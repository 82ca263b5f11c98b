-- ==
-- input { [1i32, 2i32, 3i32, 4i32] }
def halve [n] (xs: [n]i32): [n/2]i32 = xs[0:n/2] :> [n/2]i32
def dup [n] (xs: [n]i32): [n*2]i32 = xs ++ xs :> [n*2]i32
def main [n] (xs: [n]i32) =
  let h = halve xs
  let d = dup h
  let m = map (\x -> replicate n x) h
  let z = zip h (halve (reverse xs))
  in (h, d, m, unzip z |> (.1), length d, map (\r -> length r) m, transpose m |> map i32.sum)
