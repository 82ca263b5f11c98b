-- A loop parameter may grow by concatenation in the body.
-- ==
-- input { 3i64 }
-- output { 8i64 }
-- input { 0i64 }
-- output { 1i64 }
def main (n: i64): i64 = length (loop xs = [0i32] for i < n do xs ++ xs)
