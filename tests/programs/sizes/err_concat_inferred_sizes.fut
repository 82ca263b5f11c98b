-- The anonymous sizes of a function's parameters are size parameters:
-- `xs ++ ys` has the size `n+m`, which is not `10` (Note [Static size
-- checking]).
-- ==
-- error: expected type `\[10\]i32`

def main (xs: []i32) (ys: []i32) : [10]i32 = xs ++ ys
