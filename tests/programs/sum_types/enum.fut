-- Constructors without payloads as an enumeration.
-- ==
-- input { [0, 1, 2, 1, 0] }
-- output { [10, 20, 30, 20, 10] 2i64 }
type colour = #red | #green | #blue

def colour_of (i: i32): colour =
  if i == 0 then #red else if i == 1 then #green else #blue

def weight (c: colour): i32 =
  match c
  case #red -> 10
  case #green -> 20
  case #blue -> 30

def main (xs: []i32): ([]i32, i64) =
  let cs = map colour_of xs
  in (map weight cs, length (filter (\c -> c == #red) cs))
