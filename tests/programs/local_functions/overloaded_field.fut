-- A local function projecting a field of its parameter is not
-- generalised over the parameter's type: its use decides it, with the
-- field's type.
-- ==
-- input { 2 3 } output { 2 3 }

def main (x: i32) (y: i32) =
  let first v = v.0
  in (first (x, y), first (y, x))
