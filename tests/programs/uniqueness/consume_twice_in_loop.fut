-- Consuming the loop parameter twice in the same loop body.
-- ==
-- error: consumed
def f [n] (xs: *[n]i32): *[n]i32 = xs with [0] = 1

def main [n] (xs: *[n]i32) (k: i32): [n]i32 =
  loop acc = xs for _i < k do
    let a = f acc
    let b = f acc
    in map2 (+) a b
