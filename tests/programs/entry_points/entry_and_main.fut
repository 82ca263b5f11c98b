-- A program with an entry point named main and another entry point.
-- ==
-- input { 5 }
-- output { 25 }

-- ==
-- entry: cube
-- input { 3 }
-- output { 27 }

entry main (x: i32): i32 = x * x
entry cube (x: i32): i32 = x * x * x
