-- Constructor patterns nested in constructors and tuples.
-- ==
-- input { 0 } output { 0 }
-- input { 1 } output { 7 }
-- input { 2 } output { -3 }
-- input { 3 } output { 100 }
-- input { 4 } output { 42 }
type shape = #point | #pair (#num i32 | #neg i32) (#num i32 | #neg i32)

def make (k: i32): (shape, bool) =
  if k == 0 then (#point, true)
  else if k == 1 then (#pair (#num 3) (#num 4), true)
  else if k == 2 then (#pair (#num 1) (#neg 4), true)
  else if k == 3 then (#pair (#neg 1) (#neg 1), true)
  else (#point, false)

def main (k: i32): i32 =
  match make k
  case (#point, true) -> 0
  case (#pair (#num a) (#num b), _) -> a + b
  case (#pair (#num a) (#neg b), _) -> a - b
  case (#pair (#neg _) _, _) -> 100
  case (_, false) -> 42
