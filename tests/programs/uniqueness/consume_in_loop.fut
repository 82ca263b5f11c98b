-- Consuming a variable from outside a loop in the loop body.
-- ==
-- error: consumed
def f (xs: *[]i32): *[]i32 = xs with [0] = 1

def main (xs: *[]i32) (n: i32): i32 =
  loop acc = 0 for _i < n do
    let ys = f xs
    in acc + ys[0]
