-- A parameter named in a size expression of another parameter's type
-- (`[n + m]`) is an `i64`, as one that is a whole size is; a function of
-- that type passed on keeps its sizes.
-- ==
-- input { [1, 2] [3, 4, 5] } output { 5i64 }

def apply_to_concat [n] [m] (fo: [n + m]i32 -> i64) (a: [n]i32) (b: [m]i32) = fo (a ++ b)

def width n m (_: [n + m]i32) = n + m

def main = apply_to_concat (width 2 3)
