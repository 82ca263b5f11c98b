-- A definition whose size parameters appear only inside size expressions
-- of its type gets them from the use's type: `[a+b]` at `[n+m]` is `a = n`
-- and `b = m`.
-- ==
-- input { [1, 2] [3, 4, 5] } output { [3, 4, 5, 1, 2] 5i64 }

type square [n] [m] = [n][m]()

def cast [n] [m] 't (_: square [n] [m]) (a: [n]t) = a :> [m]t

def swap_sum [a] [b] 't : square [a + b] [b + a] = tabulate_2d (a + b) (b + a) (\_ _ -> ())

def main [n] [m] (xs: [n]i32) (ys: [m]i32) =
  let zs = copy (cast swap_sum (ys ++ xs))
  in (zs, length zs)
