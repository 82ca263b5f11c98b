-- An entry point parameter whose size is an expression of other
-- parameters is checked when the entry point is called, by the
-- interpreter and compiled programs alike.
-- ==
-- input { 2i64 [1, 2, 3] }
-- output { 6 }
-- input { 2i64 [1, 2] }
-- error: invalid size
-- input { 0i64 empty([0]i32) }
-- error: invalid size
entry main (n: i64) (xs: [n + 1]i32) : i32 = i32.sum xs

-- ==
-- entry: rows
-- input { 2i64 [[1, 2], [3, 4], [5, 6], [7, 8]] }
-- output { 36 }
-- input { 2i64 [[1, 2], [3, 4]] }
-- error: invalid size
entry rows (k: i64) (xss: [k * 2][]i32) : i32 = i32.sum (flatten xss)
