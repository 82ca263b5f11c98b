-- A let annotation with a size that the value does not have.
-- ==
-- error: expected
def main (x: i64): i64 =
  let ys: [3]i64 = iota 4
  in i64.sum ys + x
