-- Entry points sharing a non-entry helper function.
-- ==
-- entry: area
-- input { 3 4 }
-- output { 12 }

-- ==
-- entry: perimeter
-- input { 3 4 }
-- output { 14 }

def twice (x: i32): i32 = 2 * x

entry area (w: i32) (h: i32): i32 = w * h
entry perimeter (w: i32) (h: i32): i32 = twice w + twice h
