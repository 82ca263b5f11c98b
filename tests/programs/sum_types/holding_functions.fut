-- A sum type holding functions is lifted (`type^`): none of its values
-- comes out of a branch, a loop or an array, so the compiled backends
-- know each value's constructor statically and `match` picks its case at
-- compile time (Note [Sum types holding functions]); tests on the
-- payload (literals, nested sums) stay at run time. Functions in nested
-- sums, captured by a map's lambda.
-- ==
-- input { 5 }
-- output { [6, 7, 10, -1, 45, 100, 1, 11, 21] }
-- input { 0 }
-- output { [1, 7, 0, -1, 0, 100, 1, 11, 21] }

type^ fn = #apply (i32 -> i32) | #const i32
type^ act = #one fn | #twice fn | #lit i32

def app (f: fn) (x: i32) : i32 =
  match f
  case #apply g -> g x
  case #const c -> c

def run (a: act) (x: i32) : i32 =
  match a
  case #lit 0 -> -1
  case #one f -> app f x
  case #twice (#apply f) -> f (f x)
  case #twice _ -> 100
  case #lit c -> c

def main (x: i32) : []i32 =
  let acts = ( #one (#apply (+ 1)), #lit 7, #one (#apply (\y -> y * x)), #lit 0
             , #twice (#apply (* 3)), #twice (#const 1) )
             : (act, act, act, act, act, act)
  let ys = map (\y -> run acts.0 y + run acts.4 y) (map i32.i64 (iota 3))
  in [run acts.0 x, run acts.1 x, run acts.2 2, run acts.3 x, run acts.4 x, run acts.5 x] ++ ys
