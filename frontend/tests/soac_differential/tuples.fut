-- ==
-- input { [5i32, 3i32, 9i32, 1i32] }
def main (xs: []i32) =
  let ixs = zip (iota (length xs)) xs
  let (i, m) = reduce (\(i, a) (j, b) -> if a >= b then (i, a) else (j, b)) (-1, i32.lowest) ixs
  let arr = map (\(i, x) -> (x, i, x > 2)) ixs
  let (a, b, c) = unzip3 arr
  let upd = copy arr with [1] = (0, 0, false)
  let (u1, u2, u3) = unzip3 upd
  let sorted = scatter (replicate 4 (0i32, 0i64)) [3, 0, 2, 1] (zip xs (iota 4))
  let (p, q) = partition (\(x, _) -> x > 3) ixs
  let hs = hist (\(a, b) (c, d) -> (a + c, b * d)) (0i32, 1i32) 2 [0, 1, 0, 1] (zip xs xs)
  in (i, m, a, b, c, u1, u2, u3, unzip sorted |> (.0), unzip sorted |> (.1), unzip p |> (.0), unzip q |> (.1), unzip hs |> (.0), unzip hs |> (.1))
