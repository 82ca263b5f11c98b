-- A loop that fills an array with in-place updates.
-- ==
-- input { 4i64 }
-- output { [0, 1, 4, 9] }
-- input { 0i64 }
-- output { empty([0]i32) }
def main (n: i64): []i32 =
  loop acc = replicate n 0 for i < n do acc with [i] = i32.i64 (i * i)
