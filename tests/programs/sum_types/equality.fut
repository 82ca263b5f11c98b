-- `==` and `!=` on sum values compare the constructor and its payload.
-- ==
-- input { 1 1 } output { true false true }
-- input { 1 2 } output { false true true }
-- input { 0 0 } output { true false false }
type opt = #some i32 | #none

def mk (x: i32): opt = if x == 0 then #none else #some x

def main (x: i32) (y: i32): (bool, bool, bool) =
  (mk x == mk y, mk x != mk y, mk x != #none)
