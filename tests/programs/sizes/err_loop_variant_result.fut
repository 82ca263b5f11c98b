-- A loop whose parameter's size changes in the loop does not have the
-- size of its initial value (reference, "Unknown sizes").
-- ==
-- error: changes in the loop

def main [n] (xs: [n]i32) : [n]i32 =
  loop ys = xs for _i < 2 do ys[1:]
