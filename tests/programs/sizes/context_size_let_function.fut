-- A size parameter that only a function in the result mentions is fixed
-- by a later use of that function, also when the function is bound by a
-- `let` pattern. See Note [Context sizes of a let-bound function value].
-- ==
-- input { 4i64 }
-- output { 36i32 }
-- input { 0i64 }
-- output { 0i32 }

def main (m: i64) =
  let f [n] (m': i64) (v: i32) : ([m']i32, (os: [n]i32) -> i32) =
    (replicate m' (v + i32.i64 n), i32.sum)
  let (x, g) = f m 5
  in g x
