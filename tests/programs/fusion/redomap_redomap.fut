-- Two reductions of one mapped array (redomap into redomap).
-- ==
-- input { [1, 2, 3, 4] }
-- output { 20i32 24i32 }
-- structure { Screma 1 Redomap 1 }

def main (xs: []i32): (i32, i32) =
  let ys = map (* 2) xs
  let a = reduce (+) 0 ys
  let b = reduce (+) 0 (map (+ 1) ys)
  in (a, b)
