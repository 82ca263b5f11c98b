-- A `match` that misses a constructor is an error naming the value it
-- does not match.
-- ==
-- error: Unmatched cases in match expression: `#none`
type opt = #some i32 | #none

def main (x: opt): i32 =
  match x
  case #some v -> v
