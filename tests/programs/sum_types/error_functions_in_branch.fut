-- A value of a sum type holding functions cannot come out of a branch
-- (it is lifted, like a function).
-- ==
-- error: functions cannot be returned from the branches of `if`

type^ act = #apply (i32 -> i32) | #const i32

def run (a: act) (x: i32) : i32 =
  match a
  case #apply f -> f x
  case #const c -> c

def main (x: i32) : i32 =
  let a : act = if x > 0 then #apply (+ 1) else #const 3
  in run a x
