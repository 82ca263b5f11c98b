-- Wildcards and names in payload positions; a name matches every
-- constructor.
-- ==
-- input { [2, -3, 4] } output { 2 }
type t = #even i32 | #odd i32 | #neg i32

def tag (x: i32): t = if x < 0 then #neg x else if x % 2 == 0 then #even x else #odd x

def main (xs: []i32): i32 =
  i32.sum (map (\x -> match tag x
                      case #even _ -> 1
                      case #odd _ -> 10
                      case other -> match other case #neg _ -> 0 case _ -> 100) xs)
