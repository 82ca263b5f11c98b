-- Two entry points tested separately.
-- ==
-- entry: inc
-- input { 1 }
-- output { 2 }
-- input { -1 }
-- output { 0 }

-- ==
-- entry: dbl
-- input { 21 }
-- output { 42 }

entry inc (x: i32): i32 = x + 1
entry dbl (x: i32): i32 = x * 2
