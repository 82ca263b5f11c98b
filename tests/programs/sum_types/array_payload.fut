-- A payload that is an array (of a size the type names).
-- ==
-- input { [1, 2, 3] true } output { 6 }
-- input { [1, 2, 3] false } output { -1 }
type maybe_row [n] = #row [n]i32 | #nothing

def pick [n] (xs: [n]i32) (b: bool): maybe_row [n] =
  if b then #row xs else #nothing

def main [n] (xs: [n]i32) (b: bool): i32 =
  match pick xs b
  case #row r -> i32.sum r
  case #nothing -> -1
