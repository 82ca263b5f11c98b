-- Binary search in a sorted array.
-- ==
-- input { [1, 3, 5, 7, 9, 11] 7 }
-- output { 3i64 }
-- input { [1, 3, 5, 7, 9, 11] 1 }
-- output { 0i64 }
-- input { [1, 3, 5, 7, 9, 11] 4 }
-- output { -1i64 }
-- input { empty([0]i32) 4 }
-- output { -1i64 }
def main (xs: []i32) (k: i32): i64 =
  let (lo, _) =
    loop (lo, hi) = (0, length xs) while lo < hi do
      let mid = (lo + hi) / 2
      in if xs[mid] < k then (mid + 1, hi) else (lo, mid)
  in if lo < length xs && xs[lo] == k then lo else -1
