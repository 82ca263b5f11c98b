-- The result of a function whose body aliases none of its parameters is
-- fresh, as if its type were unique: the caller may consume it, also when
-- it is a component of a tuple.
-- ==
-- input { [3, 1, 2] } output { [9, 1, 2, 3] 3i64 }

def padded [n] (xs: [n]i32) = (concat xs [i32.i64 n], n)

entry main (xs: []i32) =
  let (ys, n) = padded xs
  let ys[0] = 9
  in (ys :> [n + 1]i32, n)
