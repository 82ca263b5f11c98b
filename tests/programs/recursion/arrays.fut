-- Recursive functions that return arrays: a merge sort that splits its
-- input and merges the sorted halves, and a recursion over `drop` that
-- builds its result with `concat`. The recursive calls stay calls, and so
-- do the calls of the recursive functions from `main`.
-- ==
-- input { [5, 3, 9, 1, 4, 1, 8] } output { [1, 1, 3, 4, 5, 8, 9] [8, 1, 4, 1, 9, 3] }
-- input { empty([0]i32) } output { empty([0]i32) empty([0]i32) }
-- structure { Apply 5 }

def merge [n] [m] (xs: [n]i32) (ys: [m]i32) : []i32 =
  let (out, _, _) =
    loop (out, i, j) = (replicate (n + m) 0, 0, 0) for k < n + m do
      if j >= m || (i < n && xs[i] <= ys[j])
      then (out with [k] = xs[i], i + 1, j)
      else (out with [k] = ys[j], i, j + 1)
  in out

def sort [n] (xs: [n]i32) : []i32 =
  if n <= 1 then xs
  else let h = n / 2
       in merge (sort (take h xs)) (sort (drop h xs))

def rev_tail [n] (xs: [n]i32) : []i32 =
  if n <= 1 then [] else rev_tail (drop 1 xs) ++ [xs[1]]

def main (xs: []i32) = (sort xs, rev_tail xs)
