-- An existential size in a return type: the function decides the length.
-- ==
-- input { 7i64 }
-- output { 3i64 [1i64, 3i64, 5i64] }
def odds (n: i64): ?[k].[k]i64 = filter (\x -> x % 2 == 1) (iota n)

def main (n: i64): (i64, []i64) =
  let xs = odds n
  in (length xs, xs)
