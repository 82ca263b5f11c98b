-- A binder's size parameters have distinct names.
-- ==
-- error: "n" also bound

def f [n] [n] (xs: [n]i32) : i32 = i32.sum xs

def main (xs: []i32) = f xs
