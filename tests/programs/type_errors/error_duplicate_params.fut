-- A name bound twice by a function's parameters.
-- ==
-- error: Variable "x" also bound
def main (x: i32) (y: i32, x: i32) : i32 = x + y
