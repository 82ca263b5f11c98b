-- A case that earlier cases already cover is an error.
-- ==
-- error: unreachable
type colour = #red | #green | #blue

def main (c: colour): i32 =
  match c
  case #red -> 1
  case _ -> 2
  case #blue -> 3
