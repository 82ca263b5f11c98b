-- A while loop whose condition guards an index with '&&'.
-- ==
-- input { [1, 3, 5, 7] 4 }
-- output { 2i64 }
-- input { [1, 3, 5, 7] 10 }
-- output { 4i64 }
-- input { empty([0]i32) 0 }
-- output { 0i64 }
def main (xs: []i32) (k: i32): i64 =
  loop i = 0 while i < length xs && xs[i] <= k do i + 1
