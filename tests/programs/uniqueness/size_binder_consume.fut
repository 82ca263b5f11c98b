-- After a size binder `let [n] p = e`, the rest of the body may consume
-- a variable bound before it (the binder is a `let`, not a function the
-- body is put in).
-- ==
-- input { [1, -2, 3] [0, 0] }
-- output { [1, 3] [2, 0] }

def main (ys: []i32) (zs: *[]i32) : ([]i32, []i32) =
  let [n] (xs: [n]i32) = filter (> 0) ys
  let zs[0] = i32.i64 n
  in (xs, zs)
