-- A sum value as a loop parameter: the first index of an element, if any.
-- ==
-- input { [5, 3, 8, 3] 3 } output { 1i64 }
-- input { [5, 3, 8, 3] 4 } output { -1i64 }
type found = #found i64 | #searching

def main (xs: []i32) (y: i32): i64 =
  let r = loop (r: found) = #searching for i < length xs do
            match r
            case #found j -> #found j
            case #searching -> if xs[i] == y then #found i else #searching
  in match r
     case #found i -> i
     case #searching -> -1
