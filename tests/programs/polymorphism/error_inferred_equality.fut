-- The type parameter inferred for `same` is limited by its use of `==`:
-- it cannot be instantiated with a function type.
-- ==
-- error: cannot be instantiated
def same x = x == x

def main (x: i32): bool = same (\y -> y + x)
