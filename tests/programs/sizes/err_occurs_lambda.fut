-- A lambda whose result size is an expression over its parameter's
-- size, passed where the function must keep the size: an occurs check.
-- ==
-- error: Occurs check

def ap 'a (f: a -> a) (x: a) = f x

def main [n] (arr: [n]i32) = ap (\xs -> xs ++ xs) arr
