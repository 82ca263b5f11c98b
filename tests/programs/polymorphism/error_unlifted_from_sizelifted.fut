-- An unlifted type parameter cannot be instantiated with a size-lifted
-- one.
-- ==
-- error: cannot be instantiated
def keep 'a (x: a): a = x

def pass '~b (x: b): b = keep x

def main (x: i32): i32 = pass x
