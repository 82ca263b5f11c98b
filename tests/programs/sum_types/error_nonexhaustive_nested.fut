-- A missing case inside a payload: the example value shows where.
-- ==
-- error: Unmatched cases in match expression: `#pair #b _`
type ab = #a | #b
type t = #pair ab i32 | #single

def main (x: t): i32 =
  match x
  case #single -> 0
  case #pair #a n -> n
