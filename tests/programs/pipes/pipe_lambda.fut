-- Piping into parenthesised lambdas.
-- ==
-- input { 4 }
-- output { 17 }
def main (x: i32): i32 =
  x |> (\y -> y * y) |> (\z -> z + 1)
