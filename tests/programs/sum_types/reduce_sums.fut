-- A reduction whose operator combines sum values: the largest element, if
-- the array has one.
-- ==
-- input { [3, 9, 2, 9, 4] } output { 9 }
-- input { empty([0]i32) } output { -1 }
type opt = #some i32 | #none

def best (a: opt) (b: opt): opt =
  match (a, b)
  case (#none, y) -> y
  case (x, #none) -> x
  case (#some x, #some y) -> #some (i32.max x y)

def main (xs: []i32): i32 =
  match reduce best #none (map (\x -> #some x) xs)
  case #some m -> m
  case #none -> -1
