-- Options of options: nested constructor patterns (also with a literal
-- inside), a polymorphic `join`, and a default.
-- ==
-- input { 5 }
-- output { 0 1 2 8 5 }
-- input { 0 }
-- output { 0 1 2 2 0 }
type opt 'a = #none | #some a

def join 'a (x: opt (opt a)): opt a =
  match x
  case #some (#some v) -> #some v
  case _ -> #none

def get_or 'a (d: a) (x: opt a): a =
  match x
  case #some v -> v
  case #none -> d

def classify (x: opt (opt i32)): i32 =
  match x
  case #none -> 0
  case #some #none -> 1
  case #some (#some 0) -> 2
  case #some (#some n) -> 3 + n

def main (k: i32): (i32, i32, i32, i32, i32) =
  let xs: [4](opt (opt i32)) = [#none, #some #none, #some (#some 0), #some (#some k)]
  let cs = map classify xs
  in (cs[0], cs[1], cs[2], cs[3], get_or (-1) (join xs[3]))
