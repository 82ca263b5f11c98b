-- Functions passed for a parameter with a unique result: a lambda whose
-- result is fresh, one returning a copy, and a local function declaring
-- its result unique.
-- ==
-- input { 5 } output { 1 5 2 }

def cons (f: () -> *[2]i32) : *[2]i32 =
  f () with [0] = 1

def main (x: i32) =
  let a = cons (\() -> [x, x])
  let b = cons (\() -> copy a)
  let c (): *[2]i32 = [x, 2]
  in (a[0], b[1], (cons c)[1])
