-- An invariant division in a loop body leaves the loop under `if n > 0`
-- (with its division-by-zero check): a loop of no iterations with a zero
-- divisor does not fail, one of some iterations does.
-- ==
-- input { 4i64 [1i64, 2i64, 3i64] } output { 6i64 }
-- input { 0i64 empty([0]i64) } output { 0i64 }
-- input { 7i64 [1i64, 2i64] } output { 9i64 }
-- structure { /Loop/BinOp 2 }

def main [n] (a: i64) (xs: [n]i64): i64 =
  loop acc = 0 for x in xs do acc + x * (a / n)
