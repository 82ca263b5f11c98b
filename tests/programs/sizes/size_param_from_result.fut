-- A size parameter that only the result type mentions takes its value
-- from the call's context (Note [Size parameters from the context]).
-- ==
-- input { 7 } output { [[7, 7, 7], [7, 7, 7]] }

def mat [m] [n] (v: i32) : [m][n]i32 = tabulate_2d m n (\_ _ -> v)

entry main (v: i32) =
  let x: [2][3]i32 = mat v
  in x
