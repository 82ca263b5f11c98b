-- ==
-- input { true [1i32, 2i32, 3i32] }
-- input { false [1i32, 2i32, 3i32] }
def main (c: bool) (xs: []i32) =
  let a = if c then xs else xs ++ xs
  let b = if c then (1i32, xs) else (2, reverse xs)
  let d = map (\x -> if x > 1 then [x, x] else [0, x]) xs
  let e = if c then filter (>1) xs else iota 2 |> map i32.i64
  in (a, b.0, b.1, d, e, length a, if c && length xs > 2 then xs[2] else 0, if !c || xs[0] == 1 then 1i32 else 2)
