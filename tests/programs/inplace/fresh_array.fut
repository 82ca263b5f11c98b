-- Arrays created by replicate and iota are unique and can be updated.
-- ==
-- input { 3i64 }
-- output { [0, 5, 0] [0i64, 1i64, 42i64] }
def main (n: i64): ([]i32, []i64) =
  let a = replicate n 0
  let b = iota n
  in (a with [1] = 5, b with [n - 1] = 42)
