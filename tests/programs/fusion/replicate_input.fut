-- A map over a replicate reads the replicated value: the outer map of
-- copies of `xs` is the inner reduction repeated, and its element at 0 is
-- that reduction (an element of a replicate); the replicate goes.
-- ==
-- input { [1.0, 2.0, 3.0] }
-- output { 12.0 }
-- structure { Screma 1 Replicate 0 }

def main (xs: []f64): f64 =
  let ys = map (\(x: []f64) -> reduce (+) 0 (map (+ 2) x)) (replicate 5 xs)
  in ys[0]
