-- A local function's parameter cannot become a size of the type of
-- something bound outside it.
-- ==
-- error: "n".*scope-violation

def main (ys: []i32) =
  let xs = map (+ 1) ys
  let f (n: i64) (zs: [n]i32) = map2 (+) zs (xs :> [n]i32)
  let g (n: i64) (zs: [n]i32) = zip zs (copy xs)
  in f 1 [1] |> length
