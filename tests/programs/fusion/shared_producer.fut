-- A producer whose result is reduced and mapped again: one redomap that
-- also maps out.
-- ==
-- input { [1, 2, 3] }
-- output { 9i32 [4i32, 6i32, 8i32] }
-- structure { Screma 1 Redomap 1 }

def main (xs: []i32): (i32, []i32) =
  let ys = map (+ 1) xs
  in (reduce (+) 0 ys, map (* 2) ys)
