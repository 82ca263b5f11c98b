-- Functions whose result size is their parameter, passed where the
-- result type is a lifted type parameter (`|>`, `uncurry`): allowed, and
-- the result's size is read from the value (Note [Dependent function
-- types]).
-- ==
-- input { 2i64 3i64 }
-- output { 3i64 6i64 true }

def grid (n: i64) (m: i64) : ([n][m]i64, [n][m]i64 -> bool) =
  (replicate n (replicate m 1), \b -> b[0, 0] == 1)

def main (n: i64) (m: i64) =
  let xs = m |> iota
  let (g, ok) = uncurry grid (n, m)
  in (length xs, i64.sum (flatten g), ok g)
