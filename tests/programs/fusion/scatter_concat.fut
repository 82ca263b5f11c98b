-- A scatter of concatenated index and value arrays of one size, made by
-- one map: the concatenations go and the scatter writes two pairs per
-- row, fused with the map (Note [Concatenations into a scatter]). The
-- indices overlap (2 is written from both halves, 0 twice from one row,
-- with the same values) and some are out of bounds (-1, -2, 10).
-- ==
-- input { [9, 9, 9, 9, 9, 9, 9, 9] [0i64, 1i64, 2i64, 3i64, -1i64, 5i64] }
-- output { [0, 10, 20, 30, 40, 50, 60, 9] }
-- input { [9, 9] empty([0]i64) }
-- output { [9, 9] }
-- structure { Concat 0 Screma 1 }

def main [k] [n] (arr: *[k]i32) (xs: [n]i64) : [k]i32 =
  let (is0, vs0, is1, vs1) =
    unzip4 (map (\x -> (x, i32.i64 x * 10, x * 2, i32.i64 (x * 2) * 10)) xs)
  let m = n + n
  in scatter arr (concat is0 is1 :> [m]i64) (concat vs0 vs1 :> [m]i32)
