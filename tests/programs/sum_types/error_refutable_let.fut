-- A pattern that can fail is only allowed in a `match` case.
-- ==
-- error: Refutable pattern
type opt = #some i32 | #none

def main (x: i32): i32 =
  let o: opt = #some x
  let (#some v) = o
  in v
