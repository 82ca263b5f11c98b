-- A data file with values of several types, including a comment.
-- ==
-- input @ data/mixed.in
-- output { 7i64 1.5 true [255u8, 0u8] }
def main (n: i64) (x: f64) (b: bool) (ys: []u8): (i64, f64, bool, []u8) =
  (n, x, b, ys)
