-- A specialised recursive function whose recursive call sits in a
-- lambda of a SOAC: the lambda captures the function parameter, which is
-- the same function there.
-- ==
-- input { 0i64 } output { 0i64 }
-- input { 3i64 } output { 21i64 }

def sumrec (g: i64 -> i64) (n: i64) : i64 =
  if n == 0
  then 0
  else i64.sum (map (\x -> g x + sumrec g (n - 1)) (iota n))

def main (n: i64) = sumrec (\x -> x + 1) n
