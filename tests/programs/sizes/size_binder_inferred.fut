-- Size binders read sizes from the value; a size variable of the
-- definition's own parameters is one (it becomes a size parameter), and
-- so is the size of an empty array's rows when an annotation gives it
-- (Note [Ambiguous size binders]). `xs ++ ys` of inferred sizes has the
-- size `n+m` (Note [Static size checking]).
-- ==
-- input { [1, 2] [3] }
-- output { 0i64 3i64 2i64 [1, 2, 3] }

def cat (xs: []i32) (ys: []i32) = xs ++ ys

def rows xs =
  let [k] (ys: [k]i32) = xs
  in k

def main (xs: []i32) (ys: []i32) : (i64, i64, i64, []i32) =
  let [n][m] (zss: [n][m]i64) = [] : [0][3]i64
  in (n, m, rows xs, cat xs ys)
