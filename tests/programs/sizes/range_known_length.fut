-- `0..<n` has size `n`; a slice `xs[1:]` has size `n-1` for both arrays.
-- ==
-- input { 4i64 } output { [0i64, 1i64, 2i64, 3i64] 3i64 }

def main (n: i64) : ([n]i64, i64) =
  let xs = 0..<n
  in (xs, length (zip xs[1:] xs[1:]))
