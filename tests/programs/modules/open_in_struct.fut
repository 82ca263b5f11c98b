-- `open` inside a structure re-exports the opened names; `local open`
-- does not.
-- ==
-- input { 3 } output { 9 10 }

module A = { def sq (x: i32) = x * x }
module B = { open A def sq1 (x: i32) = sq x + 1 }
module C = { local open A def sq2 (x: i32) = sq x + 1 }

def main (x: i32) = (B.sq x, C.sq2 x)
