-- A pattern with a constructor the type does not have.
-- ==
-- error: constructor `#purple`
type colour = #red | #green

def main (c: colour): i32 =
  match c
  case #red -> 1
  case #purple -> 2
  case _ -> 3
