-- Entry points may take and return sum values; they are opaque: `futmlir
-- run` prints a returned one (`#some 3i32`), but values of a sum type
-- cannot be given as input, nor compared with an expected output.
-- ==
-- input { 3 } output { 4 }
-- input { -3 } output { 1 }

-- ==
-- entry: unwrap
-- input { 3 } error: opaque
type opt = #some i32 | #none

entry wrap (x: i32): opt = if x > 0 then #some x else #none

entry unwrap (o: opt): i32 = match o case #some x -> x case #none -> 0

entry main (x: i32): i32 = unwrap (wrap x) + 1
