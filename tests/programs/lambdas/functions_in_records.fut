-- Records and tuples of functions: built by a function, passed to
-- another, taken apart by a pattern; the branches of an `if` apply a
-- function rather than return it.
-- ==
-- input { true 5 }
-- output { 6 10 11 }
-- input { false 5 }
-- output { 10 10 11 }
type^ ops = {inc: i32 -> i32, dbl: i32 -> i32}

def mk (k: i32): ops = {inc = (+ k), dbl = (* 2)}

def run (o: ops) (x: i32): i32 = o.inc (o.dbl x)

def main (b: bool) (x: i32): (i32, i32, i32) =
  let o = mk 1
  let (f, g) = (o.inc, o.dbl)
  in (if b then f x else g x, g x, run o x)
