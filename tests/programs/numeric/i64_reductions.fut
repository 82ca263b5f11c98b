-- Reductions on i64 and u8.
-- ==
-- input { [4000000000i64, 5000000000i64] [200u8, 100u8] }
-- output { 9000000000i64 5000000000i64 44u8 200u8 }
def main (xs: []i64) (ys: []u8): (i64, i64, u8, u8) =
  (i64.sum xs, i64.maximum xs, u8.sum ys, u8.maximum ys)
