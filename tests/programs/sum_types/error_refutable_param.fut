-- A literal pattern in a function parameter is refutable.
-- ==
-- error: Refutable pattern
def f (0: i32): i32 = 1

def main (x: i32): i32 = f x
