-- The cases of a `match` may give arrays of different sizes.
-- ==
-- input { 0 } output { [1i64, 2i64] }
-- input { 1 } output { [0i64, 1i64, 2i64] }
-- input { 2 } output { empty([0]i64) }
type len = #two | #three | #none

def main (k: i32): []i64 =
  let l: len = if k == 0 then #two else if k == 1 then #three else #none
  in match l
     case #two -> map (+1) (iota 2)
     case #three -> iota 3
     case #none -> []
