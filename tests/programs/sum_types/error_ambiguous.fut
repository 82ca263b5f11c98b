-- A constructor whose sum type nothing determines is ambiguous.
-- ==
-- error: Type is ambiguous
def main (x: i32): i32 =
  let o = if x > 0 then #some x else #none
  in match o
     case #some v -> v
     case _ -> 0
