-- Consuming the loop parameter once per iteration is fine.
-- ==
-- input { [0, 0, 0] 2 }
-- output { [2, 0, 0] }
def f [n] (xs: *[n]i32): *[n]i32 = xs with [0] = xs[0] + 1

def main [n] (xs: *[n]i32) (k: i32): [n]i32 =
  loop acc = xs for _i < k do f acc
