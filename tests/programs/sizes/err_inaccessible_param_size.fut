-- A parameter's type may not refer to a size bound inside an earlier
-- tuple parameter: the function's type cannot name it.
-- ==
-- error: Parameter refers to size "x" which will not be accessible

def f (x: i64, y: i64) (A: [x]bool) = length A + y

def main (n: i64) = f (n, 1) (replicate n true)
