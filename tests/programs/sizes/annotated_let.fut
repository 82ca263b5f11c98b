-- A let binding with a constant size in its type.
-- ==
-- input { 1 }
-- output { 6 }
def main (x: i32): i32 =
  let ys: [3]i32 = [x, x + 1, x + 2]
  in i32.sum ys
