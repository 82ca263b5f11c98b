-- One call's existential result size is the same size everywhere it
-- is used: the result zips with itself and with a map of it.
-- ==
-- input { 2i64 } output { [1i32, 1i32, 1i32] [2i32, 2i32, 2i32] }

def grow (x: i64) = let y = x + 1 in (replicate y 1i32, replicate y 2i32)

def main (a: i64) =
  let (xs, ys) = grow a
  in unzip (zip xs (map (+ 0) ys))
