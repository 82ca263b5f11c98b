-- The cases of a `match` may each consume the same array, as the
-- branches of an `if` may.
-- ==
-- input { [1, 2, 3] 0 } output { [9, 2, 3] }
-- input { [1, 2, 3] 1 } output { [1, 9, 3] }
type which = #first | #second

def main (xs: *[]i32) (k: i32): []i32 =
  let w: which = if k == 0 then #first else #second
  in match w
     case #first -> xs with [0] = 9
     case #second -> xs with [1] = 9
