-- A constructor pattern with more payloads than the constructor has.
-- ==
-- error: expected|payload
type opt = #none | #some i32

def main (x: i32): i32 =
  match (#some x : opt)
  case #some a b -> a + b
  case #none -> 0
