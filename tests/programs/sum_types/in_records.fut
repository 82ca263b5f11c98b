-- Sum values in record fields, matched with record patterns.
-- ==
-- input { 2 } output { 20 }
-- input { -2 } output { 2 }
-- input { 0 } output { -1 }
type item = {kind: #small | #large i32, count: i32}

def make (x: i32): item =
  if x > 0 then {kind = #large (x * 5), count = x}
  else if x < 0 then {kind = #small, count = -x}
  else {kind = #small, count = 0}

def main (x: i32): i32 =
  match make x
  case {kind = #large w, count} -> w * count
  case {kind = #small, count = 0} -> -1
  case {kind = #small, count} -> count
