-- `flatten` of `[n][m]t` has size `n*m`, so `unflatten` takes it back
-- without a coercion; `map unflatten` unflattens every row.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] }
-- output { [[1, 2, 3], [4, 5, 6]] [[[1, 2, 3]], [[4, 5, 6]]] 6i64 }
def main [n][m] (a: [n][m]i32) =
  let rows = map (\r -> r :> [1*m]i32) a
  in (unflatten (flatten a), map unflatten rows, length (flatten a))
