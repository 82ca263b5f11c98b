-- Integer literals never cover an integer type: a default case is needed.
-- ==
-- error: Unmatched cases in match expression: `2`
def main (x: i32): i32 =
  match x
  case 0 -> 10
  case 1 -> 20
