-- A recursive function that takes a function is compiled once per
-- function argument, which its recursive calls pass on unchanged (Note
-- [Specialised recursive functions]): two lambdas and a top-level
-- function give three specialisations, each calling itself.
-- ==
-- input { 3i64 1i64 } output { 4i64 8i64 27i64 }
-- input { 0i64 5i64 } output { 5i64 5i64 5i64 }
-- structure { Apply 6 }

def repeat (n: i64) (f: i64 -> i64) (x: i64): i64 =
  if n == 0 then x else repeat (n - 1) f (f x)

def triple (x: i64) = 3 * x

def main (n: i64) (x: i64) =
  (repeat n (\y -> y + 1) x, repeat n (\y -> y * 2) x, repeat n triple x)
