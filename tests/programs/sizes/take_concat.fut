-- `take n` gives back size `n` after a concatenation; a coercion does too.
-- ==
-- input { [1, 2, 3] }
-- output { [1, 2, 3] [1, 2, 3] }
def main [n] (xs: [n]i32): ([n]i32, [n]i32) = (take n (xs ++ xs), (xs ++ xs)[n:] :> [n]i32)
