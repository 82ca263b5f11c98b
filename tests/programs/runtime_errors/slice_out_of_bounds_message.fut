-- An out-of-bounds slice reports the index as written, and the shape, in
-- Futhark's words, from the interpreter and compiled programs alike.
-- ==
-- input { [1,2,3] 5i64 } error: Index \[1:5:2\] out of bounds for array of shape \[3\].
-- input { [1,2,3] 7i64 } error: Index \[:7\] out of bounds for array of shape \[3\].

entry main (xs: []i32) (n: i64) = if n == 5 then xs[1:n:2] else xs[:n]
