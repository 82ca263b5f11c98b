-- Applying a function to too many arguments.
-- ==
-- error: expected
def f (x: i32) (y: i32): i32 = x + y

def main (a: i32): i32 = f a 1 2
