-- A unique loop parameter updated on each iteration.
-- ==
-- input { 5i64 }
-- output { [0, 1, 3, 6, 10] }
def main (n: i64): []i32 =
  loop acc = replicate n 0 for i < n do
    if i == 0 then acc else acc with [i] = acc[i - 1] + i32.i64 i
