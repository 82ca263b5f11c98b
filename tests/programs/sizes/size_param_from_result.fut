-- A size parameter that only the result type mentions is allowed (as in
-- Futhark); taking its value from a call's context is not supported yet,
-- which is a clear error, not an internal one. (The compiled backends
-- refuse the call at compile time, "not supported yet":
-- tests/ir/source/unsupported.fut.)
-- ==
-- tags { no_cpu no_cuda }
-- input { 7 } error: not determined by the arguments

def mat [m] [n] (v: i32) : [m][n]i32 = tabulate_2d m n (\_ _ -> v)

entry main (v: i32) =
  let x: [2][3]i32 = mat v
  in x
