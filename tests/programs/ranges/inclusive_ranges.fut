-- `a...b` (both ends included) and `a..b...c` (stride b-a).
-- ==
-- input { 1 4 } output { [1, 2, 3, 4] [1, 3] [4, 3, 2, 1] }
-- input { 4 1 } error: 4...1

entry main (a: i32) (b: i32) = (a...b, a..a+2...b, b..b-1...a)
