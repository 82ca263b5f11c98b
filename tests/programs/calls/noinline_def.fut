-- `#[noinline]` on a definition keeps every call of it a call; the
-- function takes an array (a view: a row of a matrix) and reads it.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] [2, 0] } output { [3, 4] 9 }
-- structure gpu { SegMap/Apply 1 /Apply 2 }

#[noinline]
def pick (xs: []i32) (i: i32) = xs[i]

def main (xss: [][]i32) (is: []i32) =
  (map2 (\xs i -> pick xs i) xss is, pick xss[1] 2 + pick xss[1] 0 - 1)
