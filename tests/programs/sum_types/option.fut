-- An option type: values made with `map`, read back with a default.
-- ==
-- input { [1, 5, 2, 8] }
-- output { [0, 5, 0, 8] }
-- input { empty([0]i32) }
-- output { empty([0]i32) }
type opt 'a = #some a | #none

def get_or (d: i32) (x: opt i32): i32 =
  match x
  case #some v -> v
  case #none -> d

def main (xs: []i32): []i32 =
  let ys = map (\x -> if x > 4 then #some x else #none) xs
  in map (get_or 0) ys
