-- A constructor's payload must have the type the sum type gives it.
-- ==
-- error: expected type `#none \| #some i32`, found `#some f32`
type opt = #some i32 | #none

def main (x: f32): i32 =
  let o: opt = #some x
  in match o
     case #some v -> v
     case #none -> 0
