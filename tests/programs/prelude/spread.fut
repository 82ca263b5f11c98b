-- `spread k x is vs`: `k` elements, `vs[j]` at `is[j]` and `x` where no
-- index points; indices out of range (negative, or `k` and past it)
-- write nothing. Also of pairs, and of rows.
-- ==
-- input { 5i64 [1i64, 3i64, 9i64, -1i64, 5i64] [10, 30, 90, -10, 50] }
-- output { [0, 10, 0, 30, 0] [7, 10, 7, 30, 7] [false, true, false, true, false] }
-- input { 0i64 [0i64] [1] }
-- output { empty([0]i32) empty([0]i32) empty([0]bool) }
-- input { 3i64 empty([0]i64) empty([0]i32) }
-- output { [0, 0, 0] [7, 7, 7] [false, false, false] }
def main [n] (k: i64) (is: [n]i64) (vs: [n]i32): ([]i32, []i32, []bool) =
  let (ws, bs) = unzip (spread k (7, false) is (map (\v -> (v, true)) vs))
  in (spread k 0 is vs, ws, bs)

-- ==
-- entry: rows
-- input { [2i64, 0i64] [[1, 2], [3, 4]] }
-- output { [[3, 4], [0, 0], [1, 2]] }
entry rows [n] (is: [n]i64) (vs: [n][2]i32): [3][2]i32 = spread 3 [0, 0] is vs
