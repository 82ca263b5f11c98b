-- A polymorphic function on arrays, used on rows of a matrix and on a vector.
-- ==
-- input { [[1, 2], [3, 4]] }
-- output { [[3, 4], [1, 2]] [2, 1] }
def swap_ends 't [n] (xs: [n]t): [n]t =
  if n < 2 then xs
  else let ys = copy xs
       let ys[0] = xs[n - 1]
       let ys[n - 1] = xs[0]
       in ys

def main (m: [][]i32): ([][]i32, []i32) = (swap_ends m, swap_ends m[0])
